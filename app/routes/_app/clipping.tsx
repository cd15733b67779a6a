import { useState } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import type { ActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import {
  acceptInvite,
  answerSplit,
  clearClipperInviteCookie,
  clippingPage,
  deleteSource,
  markRemoved,
  renameSource,
  requestRemoval,
  requestSplit,
  reviewClip,
  revokeClipper,
  setClipViews,
  submitClip,
} from "~/modules/clipping/clipping.server";
import { SourceUploader } from "~/modules/clipping/components/source-uploader";
import {
  CLIP_PLATFORM_LABELS,
  CLIP_STATUS_LABELS,
  CLIPPING_ACTION_TITLES,
  CLIPPING_TOASTS,
  formatBytes,
  SOURCE_NAME_MAX,
  SPLIT_STATUS_LABELS,
} from "~/modules/clipping/messages";
import { clippingActionSchema } from "~/modules/clipping/schema";
import type { ClipRow, LinkRow, SourceRow, SplitRow } from "~/modules/clipping/types";
import { formatBp } from "~/modules/payments/split";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Badge, type Tone } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { ConfirmForm } from "~/ui/confirm-form";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import { Table, TableHead, TableRegion } from "~/ui/table";
import type { Route } from "./+types/clipping";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";
import { formatCount } from "~/lib/format";

export const meta = () => [{ title: "Clipping | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  return clippingPage(actorOf(user), args.request);
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireApprovedUser(args);
  const input = await parseForm(args.request, clippingActionSchema);
  const actor = actorOf(user);
  const { request } = args;
  const done = (t: { title: string; description: string }, headers?: HeadersInit) =>
    redirectWithToast(request, "/clipping", { type: "success", ...t }, headers ? { headers } : undefined);
  switch (input.intent) {
    case "accept-invite":
      await acceptInvite(actor, request, input);
      return done(CLIPPING_TOASTS.inviteAccepted, { "Set-Cookie": clearClipperInviteCookie(request) });
    case "dismiss-invite":
      return done(CLIPPING_TOASTS.inviteDismissed, { "Set-Cookie": clearClipperInviteCookie(request) });
    case "revoke":
      await revokeClipper(actor, request, input.linkId);
      return done(CLIPPING_TOASTS.revoked);
    case "rename":
      await renameSource(actor, input.sourceId, input.name);
      return done(CLIPPING_TOASTS.renamed);
    case "delete":
      await deleteSource(actor, request, input.sourceId);
      return done(CLIPPING_TOASTS.deleted);
    case "submit-clip":
      await submitClip(actor, request, input);
      return done(CLIPPING_TOASTS.submitted);
    case "review-clip":
      await reviewClip(actor, request, input);
      return done(input.decision === "approve" ? CLIPPING_TOASTS.approved : CLIPPING_TOASTS.rejected);
    case "request-removal":
      await requestRemoval(actor, request, input.clipId);
      return done(CLIPPING_TOASTS.removalRequested);
    case "mark-removed":
      await markRemoved(actor, request, input.clipId);
      return done(CLIPPING_TOASTS.removed);
    case "request-split":
      await requestSplit(actor, request, input);
      return done(CLIPPING_TOASTS.splitRequested);
    case "answer-split":
      await answerSplit(actor, request, input);
      return done(input.decision === "approve" ? CLIPPING_TOASTS.splitApproved : CLIPPING_TOASTS.splitDeclined);
    case "set-views":
      await setClipViews(actor, request, input);
      return done(CLIPPING_TOASTS.viewsSaved);
  }
}, CLIPPING_ACTION_TITLES);

export const ErrorBoundary = GeneralErrorBoundary;

// ---------------------------------------------------------------------------------------------

const STATUS_TONE: Record<ClipRow["status"], Tone> = {
  pending: "amber",
  approved: "green",
  rejected: "red",
  removal_requested: "violet",
  removed: "slate",
};

const cell = "px-3 py-2 align-top";
const head = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";

function failureFor(failure: ActionFailure | null, intent: string, key?: string, id?: string) {
  if (!failure || failure.intent !== intent) return null;
  if (key && id && failure.values?.[key] !== id) return null;
  return failure;
}

export default function Clipping({ loaderData, actionData }: Route.ComponentProps) {
  const page = loaderData;
  const failure = useActionFailure(actionData);
  const [params] = useSearchParams();

  const revoking = page.clippers.find((c) => c.id === params.get("revoke"));
  const deleting = page.sources.find((s) => s.id === params.get("delete"));
  const pendingSplits = page.clippers.flatMap((c) => c.splits.filter((s) => s.status === "pending").map((s) => ({ link: c, split: s })));

  return (
    <div className="min-w-0 space-y-10">
      <PageHeader
        title="Clipping"
        description="Clippers cut clips from your source videos. Clip revenue comes from the music monetization pool: 70% clipper, 30% creator by default."
      />

      <FailureAlert failure={failure} className="" />

      {page.pendingInvite ? <PendingInvite invite={page.pendingInvite} failure={failureFor(failure, "accept-invite")} /> : null}

      {/* ---- The creator's side ---- */}
      <Section id="invite" title="Your clipper invite link">
        {page.inviteLink ? <InviteLink url={page.inviteLink} /> : null}
      </Section>

      <Section id="clippers" title="Your clippers">
        {pendingSplits.length > 0 ? (
          <ul className="mt-3 space-y-2">
            {pendingSplits.map(({ link, split }) => (
              <li
                key={split.id}
                className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
              >
                <span>
                  <strong>{link.personName}</strong> asks for {formatBp(split.shareBps)} of clip revenue (now {formatBp(split.fromBps)}). An approved split
                  applies to revenue from the moment you confirm.
                </span>
                <span className="flex gap-2">
                  <Form method="post">
                    <input type="hidden" name="intent" value="answer-split" />
                    <input type="hidden" name="requestId" value={split.id} />
                    <input type="hidden" name="decision" value="approve" />
                    <button type="submit" className={buttonClass.primary}>
                      Approve {formatBp(split.shareBps)}
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="intent" value="answer-split" />
                    <input type="hidden" name="requestId" value={split.id} />
                    <input type="hidden" name="decision" value="decline" />
                    <button type="submit" className={buttonClass.secondary}>
                      Decline
                    </button>
                  </Form>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {page.clippers.length === 0 ? (
          <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
            No clippers yet. Share your invite link with people who will cut clips from your videos.
          </p>
        ) : (
          <TableRegion label="Clippers linked to you" className="mt-3">
            <Table caption="Clippers linked to you">
              <TableHead
                className="bg-slate-50"
                cellClassName={head}
                columns={["Clipper", "Split", "Clips", "Views", "Status", { key: "actions", label: <span className="sr-only">Actions</span> }]}
              />
              <tbody className="divide-y divide-slate-100">
                {page.clippers.map((c) => (
                  <tr key={c.id}>
                    <td className={cell}>
                      <span className="font-medium text-slate-900">{c.personName}</span>
                      <SplitHistory splits={c.splits} />
                    </td>
                    <td className={cell}>{formatBp(c.shareBps)} clipper</td>
                    <td className={`${cell} tabular-nums`}>{c.clipCount}</td>
                    <td className={`${cell} tabular-nums`}>{formatCount(c.views)}</td>
                    <td className={cell}>
                      <LinkStatus link={c} />
                    </td>
                    <td className={cell}>
                      {c.status === "active" ? (
                        <Link to={`?revoke=${c.id}`} preventScrollReset className={buttonClass.dangerOutline}>
                          Revoke access<span className="sr-only"> of {c.personName}</span>
                        </Link>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </TableRegion>
        )}
      </Section>

      <Section id="folder" title="Source folder">
        <p className="mt-1 text-sm text-slate-600">
          {formatBytes(page.usage.usedBytes)} of {formatBytes(page.usage.quotaBytes)} used. Your clippers download these videos while their access lasts.
        </p>
        <div className="mt-3">
          <SourceUploader />
        </div>
        <SourceTable sources={page.sources} own failure={failure} />
      </Section>

      <Section id="review" title="Clips of your videos">
        <ClipTable clips={page.clipsToReview} side="creator" />
      </Section>

      {/* ---- The clipper's side ---- */}
      {page.creators.length > 0 ? (
        <Section id="creators" title="Creators you clip for">
          <ul className="mt-3 space-y-6">
            {page.creators.map((c) => (
              <CreatorCard key={c.id} link={c} failure={failure} />
            ))}
          </ul>
        </Section>
      ) : null}

      {page.myClips.length > 0 || page.creators.length > 0 ? (
        <Section id="my-clips" title="Your clips">
          <ClipTable clips={page.myClips} side="clipper" />
        </Section>
      ) : null}

      {page.viewsToEnter.length > 0 ? (
        <Section id="views" title="Views to enter (TikTok and Instagram Reels)">
          <ul className="mt-3 space-y-2">
            {page.viewsToEnter.map((c) => (
              <li key={c.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
                <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
                  <input type="hidden" name="intent" value="set-views" />
                  <input type="hidden" name="clipId" value={c.id} />
                  <span className="min-w-0 flex-1 break-all">
                    {CLIP_PLATFORM_LABELS[c.platform]} · {c.url} · {c.clipperName} for {c.creatorName}
                  </span>
                  <Field
                    label="Views"
                    name="views"
                    inputMode="numeric"
                    defaultValue={String(c.views)}
                    error={failureFor(failure, "set-views", "clipId", c.id)?.errors.views}
                  />
                  <button type="submit" className={buttonClass.secondary}>
                    Save views
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {revoking ? (
        <ConfirmDialog title="Revoke access?" cancelTo="/clipping">
          <p className="text-sm text-slate-700">
            <strong>{revoking.personName}</strong> will no longer be able to download your source videos (links already given stop working at once) and will be
            notified. Their clips stay recorded for accounting.
          </p>
          <ConfirmForm action="/clipping" fields={{ intent: "revoke", linkId: revoking.id }} label="Revoke access" />
        </ConfirmDialog>
      ) : null}

      {deleting ? (
        <ConfirmDialog title="Delete source video?" cancelTo="/clipping">
          <p className="text-sm text-slate-700">
            <strong>{deleting.name}</strong> will be deleted from your folder and storage. Clips cut from it stay recorded.
          </p>
          <ConfirmForm action="/clipping" fields={{ intent: "delete", sourceId: deleting.id }} label="Delete video" />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** A confirm dialog's form: the action's fields, Cancel back to the page, and the destructive submit. */
function PendingInvite({ invite, failure }: { invite: { code: string; creatorName: string }; failure: ActionFailure | null }) {
  const [accepted, setAccepted] = useState(false);
  return (
    <section aria-labelledby="pending-invite" className="rounded-xl border border-blue-200 bg-blue-50 p-4">
      <h2 id="pending-invite" className="text-lg font-semibold text-slate-900">
        {`Clipper invite from ${invite.creatorName}`}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Accept to cut clips from {invite.creatorName}'s source videos under the{" "}
        <a className="font-medium underline" href="/terms-of-service#clipper-agreement" target="_blank" rel="noreferrer">
          Clipper Agreement
        </a>
        : 70% clipper, 30% creator of the music monetization pool revenue by default.
      </p>
      <Form method="post" className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="accept-invite" />
        <input type="hidden" name="code" value={invite.code} />
        <div className="flex items-start gap-2">
          <input
            id="acceptClipperAgreement"
            name="acceptClipperAgreement"
            type="checkbox"
            className="mt-1 h-4 w-4"
            checked={accepted}
            onChange={(e) => setAccepted(e.currentTarget.checked)}
            aria-describedby={failure?.errors.acceptClipperAgreement ? "accept-clipper-error" : undefined}
          />
          <label htmlFor="acceptClipperAgreement" className="text-sm text-slate-800">
            I accept the Clipper Agreement
          </label>
        </div>
        {failure?.errors.acceptClipperAgreement ? (
          <p id="accept-clipper-error" className="text-sm text-red-700">
            {failure.errors.acceptClipperAgreement}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass.primary} disabled={!accepted}>
            Accept invite
          </button>
        </div>
      </Form>
      <Form method="post" className="mt-2">
        <input type="hidden" name="intent" value="dismiss-invite" />
        <button type="submit" className={buttonClass.secondary}>
          Dismiss
        </button>
      </Form>
    </section>
  );
}

function InviteLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end">
      <Field label="Invite link" name="inviteLink" readOnly value={url} className="min-w-0 flex-1" onFocus={(e) => e.currentTarget.select()} />
      <button
        type="button"
        className={buttonClass.secondary}
        onClick={() => {
          void navigator.clipboard?.writeText(url).then(() => setCopied(true));
        }}
      >
        {copied ? "Copied" : "Copy link"}
      </button>
    </div>
  );
}

function LinkStatus({ link }: { link: LinkRow }) {
  return link.status === "active" ? (
    <Badge tone="green">Active</Badge>
  ) : (
    <span className="text-sm text-slate-600">
      <Badge tone="red">Revoked</Badge> <LocalTime iso={link.revokedAt} />
    </span>
  );
}

function SplitHistory({ splits }: { splits: SplitRow[] }) {
  if (splits.length === 0) return <p className="text-xs text-slate-600">Default split</p>;
  return (
    <details className="mt-1 text-xs text-slate-600">
      <summary className="cursor-pointer">Split history</summary>
      <ul className="mt-1 space-y-1">
        {splits.map((s) => (
          <li key={s.id}>
            {formatBp(s.fromBps)} → {formatBp(s.shareBps)}: {SPLIT_STATUS_LABELS[s.status]}{" "}
            {s.decidedAt ? (
              <>
                (<LocalTime iso={s.decidedAt} withTime />)
              </>
            ) : (
              <>
                (asked <LocalTime iso={s.createdAt} withTime />)
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

function SourceTable({ sources, own, failure }: { sources: SourceRow[]; own?: boolean; failure: ActionFailure | null }) {
  if (sources.length === 0) {
    return <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">No source videos yet.</p>;
  }
  return (
    <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
      {sources.map((s) => (
        <li key={s.id} className="flex flex-col gap-2 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            <p className="break-all font-medium text-slate-900">{s.name}</p>
            <p className="text-xs text-slate-600">
              {formatBytes(s.sizeBytes)} · <LocalTime iso={s.createdAt} />
              {s.status === "uploading" ? ` · Upload incomplete (${s.uploadedParts} of ${s.partCount} parts): choose the same file to resume` : ""}
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            {s.status === "ready" ? (
              <a href={`/clipping/sources/${s.id}/download`} className={buttonClass.secondary}>
                Download<span className="sr-only"> {s.name}</span>
              </a>
            ) : null}
            {own ? (
              <>
                <details className="relative">
                  <summary className={`${buttonClass.secondary} cursor-pointer list-none`}>
                    Rename<span className="sr-only"> {s.name}</span>
                  </summary>
                  <Form method="post" className="mt-2 flex items-end gap-2">
                    <input type="hidden" name="intent" value="rename" />
                    <input type="hidden" name="sourceId" value={s.id} />
                    <Field
                      label="New name"
                      name="name"
                      defaultValue={s.name}
                      maxLength={SOURCE_NAME_MAX}
                      required
                      error={failureFor(failure, "rename", "sourceId", s.id)?.errors.name}
                    />
                    <button type="submit" className={buttonClass.primary}>
                      Save
                    </button>
                  </Form>
                </details>
                <Link to={`?delete=${s.id}`} preventScrollReset className={buttonClass.dangerOutline}>
                  Delete<span className="sr-only"> {s.name}</span>
                </Link>
              </>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

function ClipTable({ clips, side }: { clips: ClipRow[]; side: "creator" | "clipper" }) {
  if (clips.length === 0) {
    return <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">No clips yet.</p>;
  }
  return (
    <TableRegion label={side === "creator" ? "Clips of your videos" : "Your clips"} className="mt-3">
      <Table caption={side === "creator" ? "Clips of your videos" : "Your clips"}>
        <TableHead
          className="bg-slate-50"
          cellClassName={head}
          columns={[
            "Clip",
            { key: "who", label: side === "creator" ? "Clipper" : "Creator" },
            "Source",
            "Status",
            "Views",
            { key: "actions", label: <span className="sr-only">Actions</span> },
          ]}
        />
        <tbody className="divide-y divide-slate-100">
          {clips.map((c) => (
            <tr key={c.id}>
              <td className={cell}>
                <span className="block text-xs text-slate-600">{CLIP_PLATFORM_LABELS[c.platform]}</span>
                {/* One line, cut with an ellipsis (the full URL is the link and its title): at 375 px a
                    wrapped URL made the row a column of fragments. */}
                <a href={c.url} target="_blank" rel="noreferrer noopener" title={c.url} className="block max-w-48 truncate text-blue-800 underline">
                  {c.url.replace(/^https?:\/\/(www\.)?/, "")}
                </a>
              </td>
              <td className={cell}>{side === "creator" ? c.clipperName : c.creatorName}</td>
              <td className={`${cell} break-words`}>{c.sourceName}</td>
              <td className={cell}>
                <Badge tone={STATUS_TONE[c.status]}>{CLIP_STATUS_LABELS[c.status]}</Badge>
              </td>
              <td className={`${cell} tabular-nums`}>{formatCount(c.views)}</td>
              <td className={cell}>
                <ClipActions clip={c} side={side} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </TableRegion>
  );
}

function IntentButton({
  intent,
  fields,
  label,
  variant = "secondary",
}: {
  intent: string;
  fields: Record<string, string>;
  label: string;
  variant?: keyof typeof buttonClass;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className={`${buttonClass[variant]} whitespace-nowrap`} disabled={busy}>
        {label}
      </button>
    </Form>
  );
}

function ClipActions({ clip, side }: { clip: ClipRow; side: "creator" | "clipper" }) {
  if (side === "creator" && clip.status === "pending") {
    return (
      <div className="flex flex-wrap gap-2">
        <IntentButton intent="review-clip" fields={{ clipId: clip.id, decision: "approve" }} label="Approve" variant="primary" />
        <IntentButton intent="review-clip" fields={{ clipId: clip.id, decision: "reject" }} label="Reject" />
      </div>
    );
  }
  if (side === "creator" && clip.status === "approved") {
    return <IntentButton intent="request-removal" fields={{ clipId: clip.id }} label="Ask for removal" variant="dangerOutline" />;
  }
  if (side === "clipper" && clip.status === "removal_requested") {
    return <IntentButton intent="mark-removed" fields={{ clipId: clip.id }} label="Mark removed" />;
  }
  return null;
}

function CreatorCard({ link, failure }: { link: LinkRow & { sources: SourceRow[] }; failure: ActionFailure | null }) {
  const pending = link.splits.find((s) => s.status === "pending");
  const clipFailure = failureFor(failure, "submit-clip", "linkId", link.id);
  const splitFailure = failureFor(failure, "request-split", "linkId", link.id);
  const ready = link.sources.filter((s) => s.status === "ready");
  return (
    <li className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">{link.personName}</h3>
        <LinkStatus link={link} />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Your split: <strong>{formatBp(link.shareBps)}</strong> clipper, {formatBp(10_000 - link.shareBps)} creator.
      </p>
      <SplitHistory splits={link.splits} />
      {link.status !== "active" ? (
        <p className="mt-2 text-sm text-slate-700">This creator revoked your access. Your clips stay recorded.</p>
      ) : (
        <>
          <h4 className="mt-4 text-sm font-semibold text-slate-900">Source folder</h4>
          <SourceTable sources={ready} failure={failure} />

          <div className="mt-4 grid min-w-0 grid-cols-1 gap-6 lg:grid-cols-2">
            <Form method="post" className="min-w-0 space-y-3" aria-label={`Submit a clip for ${link.personName}`}>
              <h4 className="text-sm font-semibold text-slate-900">Submit a clip</h4>
              <input type="hidden" name="intent" value="submit-clip" />
              <input type="hidden" name="linkId" value={link.id} />
              <Select
                label="Platform"
                name="platform"
                options={Object.entries(CLIP_PLATFORM_LABELS).map(([value, label]) => ({ value, label }))}
                defaultValue={clipFailure?.values?.platform ?? "youtube_shorts"}
                error={clipFailure?.errors.platform}
              />
              <Field
                label="Clip URL"
                name="url"
                type="url"
                required
                placeholder="https://www.youtube.com/shorts/…"
                defaultValue={clipFailure?.values?.url ?? ""}
                error={clipFailure?.errors.url}
              />
              <Select
                label="Source video"
                name="sourceId"
                options={[{ value: "", label: "Choose a source video" }, ...ready.map((s) => ({ value: s.id, label: s.name }))]}
                defaultValue={clipFailure?.values?.sourceId ?? ""}
                error={clipFailure?.errors.sourceId}
              />
              <button type="submit" className={buttonClass.primary}>
                Submit clip
              </button>
            </Form>

            <Form method="post" className="min-w-0 space-y-3" aria-label={`Request a higher split from ${link.personName}`}>
              <h4 className="text-sm font-semibold text-slate-900">Request a higher split</h4>
              <input type="hidden" name="intent" value="request-split" />
              <input type="hidden" name="linkId" value={link.id} />
              {pending ? (
                <p className="text-sm text-slate-700">
                  You asked for {formatBp(pending.shareBps)}; waiting for the creator (asked <LocalTime iso={pending.createdAt} withTime />
                  ).
                </p>
              ) : (
                <>
                  <Field
                    label="Your share (%)"
                    name="sharePercent"
                    inputMode="decimal"
                    required
                    hint="Applies only to revenue after the creator confirms it."
                    defaultValue={splitFailure?.values?.sharePercent ?? ""}
                    error={splitFailure?.errors.sharePercent}
                  />
                  <button type="submit" className={buttonClass.secondary}>
                    Request split
                  </button>
                </>
              )}
            </Form>
          </div>
        </>
      )}
    </li>
  );
}
