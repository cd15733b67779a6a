import { Form, Link, useNavigation } from "react-router";
import { formatDateTime } from "~/lib/dates";
import type { ActionFailure } from "~/lib/errors";
import { formatCount } from "~/lib/format";
import { Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { Card } from "~/ui/card";
import { Field } from "~/ui/field";
import { RefreshCw, SquarePlay, Unlink } from "~/ui/icons";
import type { LinkedChannel, ManualSubmission, SocialHandles } from "../channels.server";
import { CHANNEL_NAME_MAX, HANDLE_MAX, SOCIAL_LABELS, SUBMISSION_STATUS_LABELS } from "../messages";
import { ChannelHeading } from "./channel-heading";

// The parts of /channels: the connect button (a document POST to Google's consent screen), a
// linked channel's card, the manual submission form and its submissions, and the failures shown
// where they happened. The route (app/routes/_app/channels.tsx) loads and acts.

export function ConnectButton({ label, variant = "primary" }: { label: string; variant?: "primary" | "secondary" }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "connect";
  // A document POST: the answer is a redirect to Google's consent screen.
  return (
    <Form method="post" action="/channels" reloadDocument>
      <input type="hidden" name="intent" value="connect" />
      <button type="submit" disabled={busy} className={`${variant === "primary" ? buttonClass.primary : buttonClass.secondary} whitespace-nowrap`}>
        <SquarePlay className="h-4 w-4" aria-hidden="true" />
        {label}
      </button>
    </Form>
  );
}

/** A failed channel action, spelled out where it happened; a lost grant offers to reconnect. */
export function ChannelFailureAlert({ failure, className }: { failure: ActionFailure; className: string }) {
  return (
    <div role="alert" className={`${className} rounded-lg border border-red-200 bg-red-50 text-sm text-red-900`}>
      <p className="font-semibold">{failure.toast.title}</p>
      <p className="mt-1">{failure.toast.description}</p>
      {failure.details?.reconnect ? (
        <div className="mt-3">
          <ConnectButton label="Reconnect YouTube channel" variant="secondary" />
        </div>
      ) : null}
    </div>
  );
}

export function LoadError({ title, message }: { title: string; message: string }) {
  return (
    <div role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{message}</p>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="text-base font-semibold text-slate-900 tabular-nums sm:text-lg">{formatCount(value)}</dd>
    </div>
  );
}

export function ChannelCard({ channel: c, failure }: { channel: LinkedChannel; failure: ActionFailure | null }) {
  const navigation = useNavigation();
  const refreshing = navigation.state === "submitting" && navigation.formData?.get("intent") === "refresh" && navigation.formData?.get("channelId") === c.id;
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start gap-3">
        {c.thumbnailUrl ? (
          <img src={c.thumbnailUrl} alt="" className="h-12 w-12 shrink-0 rounded-full object-cover" />
        ) : (
          <span aria-hidden="true" className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-brand-100 text-lg font-bold text-brand-700">
            {c.title.charAt(0).toUpperCase()}
          </span>
        )}
        <div className="min-w-0 flex-1 basis-40">
          <h3 className="truncate text-base font-semibold text-slate-900">{c.title}</h3>
          <p className="truncate text-sm text-slate-600">
            {c.handle ? (
              <a
                href={`https://www.youtube.com/${c.handle.startsWith("@") ? c.handle : `channel/${c.channelId}`}`}
                className="underline underline-offset-2 hover:text-slate-900"
                target="_blank"
                rel="noopener noreferrer"
              >
                {c.handle}
              </a>
            ) : (
              c.channelId
            )}
          </p>
        </div>
        {c.authorized ? <Badge tone="green">Linked</Badge> : <Badge tone="amber">Reconnect needed</Badge>}
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-2">
        <Stat label="Subscribers" value={c.subscriberCount} />
        <Stat label="Views" value={c.viewCount} />
        <Stat label="Videos" value={c.videoCount} />
      </dl>
      <p className="mt-3 text-xs text-slate-600">
        Last synced {formatDateTime(c.lastSyncedAt)} · linked {formatDateTime(c.createdAt)}
      </p>
      {failure ? <ChannelFailureAlert failure={failure} className="mt-3 p-3" /> : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <Form method="post" action="/channels" preventScrollReset>
          <input type="hidden" name="intent" value="refresh" />
          <input type="hidden" name="channelId" value={c.id} />
          <button type="submit" className={buttonClass.secondary} disabled={refreshing}>
            <RefreshCw className={`h-4 w-4 ${refreshing ? "animate-spin" : ""}`} aria-hidden="true" />
            {refreshing ? "Refreshing..." : "Refresh"}
            <span className="sr-only"> {c.title}</span>
          </button>
        </Form>
        <Link to={`/channels?disconnect=${encodeURIComponent(c.id)}`} preventScrollReset className={buttonClass.dangerOutline}>
          <Unlink className="h-4 w-4" aria-hidden="true" />
          Disconnect
          <span className="sr-only"> {c.title}</span>
        </Link>
      </div>
    </li>
  );
}

/** The inputs of a count: a whole number of 0 or more. */
const WHOLE_NUMBER = { type: "number", min: 0, step: 1, inputMode: "numeric" } as const;

/** A /channels form's state: busy while its intent submits, and the refused submission's errors and values. */
function useChannelForm(intent: string, failure: ActionFailure | null) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return { busy, errors: failure?.errors ?? {}, values: failure?.values ?? {} };
}

/** The form's intent, and its refusal when no field carries it. */
function ChannelFormHead({ intent, failure }: { intent: string; failure: ActionFailure | null }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      {failure && !Object.keys(failure.errors ?? {}).length ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure.toast.title}: {failure.toast.description}
        </p>
      ) : null}
    </>
  );
}

export function ManualSubmissionForm({ failure }: { failure: ActionFailure | null }) {
  const { busy, errors, values } = useChannelForm("submit", failure);
  return (
    <Card className="mt-3">
      <Form method="post" action="/channels" className="space-y-4" noValidate preventScrollReset>
        <ChannelFormHead intent="submit" failure={failure} />
        <Field
          label="Channel name"
          name="channelName"
          required
          maxLength={CHANNEL_NAME_MAX}
          autoComplete="off"
          defaultValue={values.channelName}
          error={errors.channelName}
        />
        <Field
          label="Channel URL (optional)"
          name="channelUrl"
          type="url"
          inputMode="url"
          placeholder="https://www.youtube.com/@yourchannel"
          autoComplete="url"
          defaultValue={values.channelUrl}
          error={errors.channelUrl}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Subscriber count" name="subscriberCount" {...WHOLE_NUMBER} defaultValue={values.subscriberCount} error={errors.subscriberCount} />
          <Field label="Avg monthly views" name="avgMonthlyViews" {...WHOLE_NUMBER} defaultValue={values.avgMonthlyViews} error={errors.avgMonthlyViews} />
        </div>
        <button type="submit" className={buttonClass.primary} disabled={busy}>
          {busy ? "Submitting..." : "Submit channel"}
        </button>
      </Form>
    </Card>
  );
}

const STATUS_TONE = { pending: "slate", verification_submitted: "blue", verified: "green", rejected: "red" } as const;

export function SubmissionItem({ submission: s }: { submission: ManualSubmission }) {
  const canSubmit = s.status === "pending" || s.status === "rejected";
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <ChannelHeading name={s.channelName} url={s.channelUrl} level="h4" linkClassName="text-slate-600" />
        </div>
        <Badge tone={STATUS_TONE[s.status]}>{SUBMISSION_STATUS_LABELS[s.status] ?? s.status}</Badge>
      </div>
      <p className="mt-2 text-sm text-slate-700">
        {formatCount(s.subscriberCount)} subscribers · {formatCount(s.avgMonthlyViews)} avg monthly views
      </p>
      <p className="mt-1 text-xs text-slate-600">
        Submitted {formatDateTime(s.createdAt)}
        {s.verificationSubmittedAt ? ` · sent for verification ${formatDateTime(s.verificationSubmittedAt)}` : ""}
        {s.reviewedAt ? ` · reviewed ${formatDateTime(s.reviewedAt)}` : ""}
      </p>
      {s.status === "rejected" && s.rejectionReason ? (
        <p className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">Reason: {s.rejectionReason}</p>
      ) : null}
      {canSubmit ? (
        <Form method="post" action="/channels" className="mt-3" preventScrollReset>
          <input type="hidden" name="intent" value="submit-verification" />
          <input type="hidden" name="id" value={s.id} />
          <button type="submit" className={buttonClass.secondary}>
            Submit for verification<span className="sr-only">: {s.channelName}</span>
          </button>
        </Form>
      ) : null}
    </li>
  );
}

/**
 * The creator's TikTok and Instagram handles (decision 0265): a campaign video on those platforms
 * must be posted by the declared handle. Empty clears a handle.
 */
export function SocialHandlesForm({ handles, failure }: { handles: SocialHandles; failure: ActionFailure | null }) {
  const { busy, errors, values } = useChannelForm("handles", failure);
  return (
    <Card className="mt-3">
      <Form method="post" action="/channels" className="space-y-4" noValidate preventScrollReset>
        <ChannelFormHead intent="handles" failure={failure} />
        <div className="grid gap-4 sm:grid-cols-2">
          {(["tiktok", "instagram"] as const).map((p) => (
            <Field
              key={p}
              label={`${SOCIAL_LABELS[p]} handle`}
              name={p}
              placeholder="@yourhandle"
              maxLength={HANDLE_MAX + 1}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              defaultValue={values[p] ?? (handles[p] ? `@${handles[p]}` : "")}
              error={errors[p]}
              hint="Leave empty if you don't post there."
            />
          ))}
        </div>
        <button type="submit" className={buttonClass.primary} disabled={busy}>
          {busy ? "Saving..." : "Save handles"}
        </button>
      </Form>
    </Card>
  );
}
