import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { formatDateTime } from "~/lib/dates";
import { formatCount } from "~/lib/format";
import { hrefWith } from "~/lib/href";
import type { AdminUserDetails } from "~/modules/accounts/accounts.server";
import { ApprovalBadge, Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { ACTIONS_WITH_REASON, USER_ACTION_LABELS, type UserAction } from "../messages";
import { ConfirmActions, ConfirmReason } from "./console";

// One person on /admin/users: what they signed up with, their standing, channels and e-mails, the
// actions an admin may take on them, and the confirmation each asks (with a reason where the
// person sees one). The route (app/routes/admin/users.tsx) loads and acts.

function availableActions(user: AdminUserDetails, actorId: string): UserAction[] {
  const self = user.id === actorId;
  const actions: UserAction[] = [];
  if (user.approvalStatus !== "approved") actions.push("approve");
  if (user.approvalStatus !== "rejected" && !self) actions.push("reject");
  if (user.isBanned) actions.push("unban");
  else if (!self) actions.push("ban");
  actions.push("toggle_music_partner");
  if (!user.isAdmin && !user.isBanned) actions.push("grant_admin");
  if (user.isAdmin && !self) actions.push("revoke_admin");
  actions.push("end_sessions");
  if (!self && !user.deletionRequestedAt && !user.deletedAt) actions.push("delete_account");
  return actions;
}

function actionLabel(intent: UserAction, user: AdminUserDetails): string {
  if (intent === "toggle_music_partner") return user.isMusicPartner ? "Remove music partner" : "Make music partner";
  return USER_ACTION_LABELS[intent].label;
}

export function UserPanel({
  user,
  channels,
  actorId,
  pathname,
  search,
}: {
  user: AdminUserDetails;
  channels: { channelId: string; title: string }[];
  actorId: string;
  pathname: string;
  search: string;
}) {
  const s = user.signUp;
  const details: [string, ReactNode][] = [
    [
      "YouTube channel IDs",
      channels.length === 0 ? (
        "None linked"
      ) : (
        <ul key="channel-ids" className="space-y-1">
          {channels.map((c) => (
            <li key={c.channelId}>
              <code className="rounded bg-slate-100 px-1 break-all select-all">{c.channelId}</code>{" "}
              <span className="font-normal text-slate-600">{c.title}</span>
            </li>
          ))}
        </ul>
      ),
    ],
    [
      "Channel URL",
      s.youtubeChannelUrl ? (
        <span key="channel-url" className="break-all">
          {s.youtubeChannelUrl}
        </span>
      ) : (
        "—"
      ),
    ],
    ["Subscribers", formatCount(s.subscriberCount)],
    ["Monthly views", formatCount(s.monthlyViews)],
    ["Referral code", s.referralCode ?? "—"],
    ["Referred by", user.referredByEmail ?? "—"],
    ["Agency", user.agencyName ? `${user.agencyName} (${user.agencySlug})` : s.agencyName ? `${s.agencyName} (${s.agencySlug ?? "no slug"})` : "—"],
    ["Wants to be a clipper", s.wantsToBeClipper ? "Yes" : "No"],
    ["Clipper agreement accepted", s.clipperAgreementAccepted ? "Yes" : "No"],
    ["Creator ID", user.creatorId],
    ["Signed up", formatDateTime(user.createdAt)],
    ["E-mail verified", user.emailVerifiedAt ? formatDateTime(user.emailVerifiedAt) : "Not yet"],
    ["Last sign-in", formatDateTime(user.lastSignInAt)],
    ["Active sessions", String(user.sessionCount)],
  ];
  if (user.artistName) details.push(["Artist or label", user.artistName]);
  if (user.catalogueUrl)
    details.push([
      "Catalogue",
      <span key="catalogue" className="break-all">
        {user.catalogueUrl}
      </span>,
    ]);
  return (
    <section aria-labelledby="selected-user" className="mb-6 rounded-xl border border-sky-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="selected-user" className="text-lg font-semibold text-slate-900">
            {user.fullName || user.email}
            {user.id === actorId ? <span className="ml-2 text-sm font-normal text-slate-500">(you)</span> : null}
          </h2>
          <p className="break-all text-slate-600">{user.email}</p>
          <div className="mt-2 flex flex-wrap gap-1">
            <ApprovalBadge status={user.approvalStatus} />
            {user.isBanned ? <Badge tone="red">Banned</Badge> : null}
            {user.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
            {user.isMusicPartner ? <Badge tone="blue">Music partner</Badge> : null}
          </div>
        </div>
        <Link to={hrefWith(pathname, search, { user: null, confirm: null })} preventScrollReset className={buttonClass.secondary}>
          Close
        </Link>
      </div>
      {user.isBanned && user.banReason ? (
        <p className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
          <span className="font-semibold">Ban reason:</span> {user.banReason}
        </p>
      ) : null}
      {user.approvalStatus === "rejected" && user.rejectionReason ? (
        <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span className="font-semibold">Rejection reason:</span> {user.rejectionReason}
        </p>
      ) : null}
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Sign-up details</h3>
      <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {details.map(([k, v]) => (
          <div key={k} className="flex flex-col sm:flex-row sm:gap-2">
            <dt className="shrink-0 text-slate-600 sm:w-48">{k}</dt>
            <dd className="min-w-0 font-medium text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      {user.deletionDueAt ? (
        <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span className="font-semibold">Scheduled for deletion:</span> {formatDateTime(user.deletionDueAt)} (asked {formatDateTime(user.deletionRequestedAt)}
          ). Signing in during the grace period keeps the account.
        </p>
      ) : null}
      {user.deletedAt ? (
        <p className="mt-3 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-800">
          <span className="font-semibold">Deleted:</span> {formatDateTime(user.deletedAt)}. Personal data removed; financial records kept anonymised.
        </p>
      ) : null}
      <EmailDeliveries emails={user.emails} />
      <h3 className="mt-5 text-sm font-semibold text-slate-900">Actions</h3>
      <div className="mt-2 flex flex-wrap gap-2">
        {!user.deletedAt ? (
          <a href={`/admin/users/${user.id}/export`} download className={buttonClass.secondary}>
            Export data
          </a>
        ) : null}
        {availableActions(user, actorId).map((intent) => (
          <Link
            key={intent}
            to={hrefWith(pathname, search, { user: user.id, confirm: intent })}
            preventScrollReset
            className={USER_ACTION_LABELS[intent].danger ? buttonClass.dangerOutline : buttonClass.secondary}
          >
            {actionLabel(intent, user)}
          </Link>
        ))}
      </div>
    </section>
  );
}

const DELIVERY_LABELS: Record<AdminUserDetails["emails"][number]["status"], { label: string; tone: "green" | "amber" | "red" | "slate" | "blue" }> = {
  sent: { label: "Sent", tone: "green" },
  queued: { label: "Queued", tone: "slate" },
  sending: { label: "Sending", tone: "blue" },
  retrying: { label: "Retrying", tone: "amber" },
  failed: { label: "Failed", tone: "red" },
};

/** The person's latest e-mails and how each was delivered (issue 28): sent, retrying (next try), failed with the reason. */
function EmailDeliveries({ emails }: { emails: AdminUserDetails["emails"] }) {
  return (
    <>
      <h3 className="mt-5 text-sm font-semibold text-slate-900" id="user-emails">
        E-mails
      </h3>
      {emails.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No e-mails to this address yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200" aria-labelledby="user-emails">
          {emails.map((m) => (
            <li key={m.id} className="flex flex-col gap-1 px-3 py-2 text-sm sm:flex-row sm:items-start sm:justify-between sm:gap-4">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{m.subject}</p>
                <p className="text-xs text-slate-600">
                  {m.kind} · queued {formatDateTime(m.createdAt)}
                  {m.sentAt ? ` · sent ${formatDateTime(m.sentAt)}` : ""}
                  {m.status === "retrying" && m.nextAttemptAt ? ` · next try ${formatDateTime(m.nextAttemptAt)}` : ""}
                  {m.attempts > 1 ? ` · ${m.attempts} tries` : ""}
                </p>
                {m.lastError && m.status !== "sent" ? <p className="text-xs break-words text-red-800">{m.lastError}</p> : null}
              </div>
              <span className="self-start">
                <Badge tone={DELIVERY_LABELS[m.status].tone}>{DELIVERY_LABELS[m.status].label}</Badge>
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ConfirmAction({ user, intent, cancelTo, error }: { user: AdminUserDetails; intent: UserAction; cancelTo: string; error?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const needsReason = ACTIONS_WITH_REASON.includes(intent);
  const meta = USER_ACTION_LABELS[intent];
  const label = actionLabel(intent, user);
  return (
    <ConfirmDialog title={`${label}: ${user.fullName || user.email}`} cancelTo={cancelTo}>
      <Form method="post" preventScrollReset>
        <p className="text-sm text-slate-700">{meta.confirm}</p>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="userId" value={user.id} />
        <input type="hidden" name="confirm" value="yes" />
        {needsReason ? <ConfirmReason id="action-reason" label="Reason (the user sees it)" error={error} errorId="action-error" /> : null}
        <ConfirmActions cancelTo={cancelTo} danger={meta.danger} disabled={busy} error={error} errorId="action-error">
          {busy ? "Working..." : `Confirm ${label.toLowerCase()}`}
        </ConfirmActions>
      </Form>
    </ConfirmDialog>
  );
}
