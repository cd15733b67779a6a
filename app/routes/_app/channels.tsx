import { RefreshCw, SquarePlay, Unlink } from "~/ui/icons";
import { useEffect } from "react";
import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { toast } from "~/ui/toaster";
import { Badge } from "~/ui/badge";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { ConfirmForm } from "~/ui/confirm-form";
import { buttonClass } from "~/ui/button";
import { formatDateTime } from "~/lib/dates";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/ui/field";
import { Card } from "~/ui/card";
import { PageHeader } from "~/ui/page-header";
import { DomainError, type ActionFailure } from "~/lib/errors";
import type { ToastInput } from "~/lib/toast";
import { actorOf, type SessionUser } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { formatCount } from "~/lib/format";
import { ChannelHeading } from "~/modules/channels/components/channel-heading";
import {
  channelsPage,
  clearChannelLinkCookie,
  completeChannelLink,
  createManualSubmission,
  disconnectChannel,
  refreshChannel,
  startChannelLink,
  submitForVerification,
  type LinkedChannel,
  type ManualSubmission,
} from "~/modules/channels/channels.server";
import { CHANNEL_ACTION_TITLES, channelActionSchema } from "~/modules/channels/schema";
import { CHANNEL_NAME_MAX, CHANNEL_TOASTS, SUBMISSION_STATUS_LABELS } from "~/modules/channels/messages";
import { domainAction, domainLoader } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast, setToastCookie } from "~/platform/toast.server";
import type { Route } from "./+types/channels";
import { useActionFailure } from "~/ui/action-failure";

export const meta = () => [{ title: "Channels | Shortbeat" }];

/** A refused refresh or submission's Retry-After reaches the browser on document requests too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

/**
 * The provider returns to /channels with ?code&state (or ?error): the module links the channel,
 * then the browser goes to /channels without the query, with the toast; the flow cookie is
 * cleared whatever the outcome.
 */
async function finishLink(request: Request, user: SessionUser): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await clearChannelLinkCookie(request));
  let message: ToastInput;
  try {
    const { title } = await completeChannelLink(actorOf(user), request);
    message = { type: "success", title: CHANNEL_TOASTS.connectedTitle, description: CHANNEL_TOASTS.connected(title) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    message = { type: "error", title: error.title ?? CHANNEL_TOASTS.connectFailedTitle, description: error.message };
  }
  headers.append("Set-Cookie", await setToastCookie(request, message));
  return redirect("/channels", { headers });
}

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  const url = new URL(args.request.url);
  // The OAuth return stays a loader path: the provider sends the browser here with a GET.
  if (url.searchParams.has("code") || url.searchParams.has("error") || url.searchParams.has("state")) {
    throw await finishLink(args.request, user);
  }
  return channelsPage(actorOf(user));
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireApprovedUser(args);
  const input = await parseForm(args.request, channelActionSchema);
  const actor = actorOf(user);
  const { request } = args;
  switch (input.intent) {
    case "connect": {
      // A document POST: the answer is a redirect to Google's consent screen.
      const { location, setCookie } = await startChannelLink(actor, request);
      return redirect(location, { headers: { "Set-Cookie": setCookie } });
    }
    case "refresh":
      await refreshChannel(actor, request, input.channelId);
      return redirectWithToast(request, "/channels", { type: "success", ...CHANNEL_TOASTS.updated });
    case "disconnect":
      await disconnectChannel(actor, request, input.channelId);
      return redirectWithToast(request, "/channels", { type: "success", ...CHANNEL_TOASTS.disconnected });
    case "submit":
      await createManualSubmission(actor, input);
      return redirectWithToast(request, "/channels", { type: "success", ...CHANNEL_TOASTS.submitted });
    case "submit-verification":
      await submitForVerification(actor, input.id);
      return redirectWithToast(request, "/channels", { type: "success", ...CHANNEL_TOASTS.verificationSubmitted });
  }
}, CHANNEL_ACTION_TITLES);

// ---------------------------------------------------------------------------------------------

export default function Channels({ loaderData, actionData }: Route.ComponentProps) {
  const { channels, submissions, channelsError, submissionsError } = loaderData;
  const [params] = useSearchParams();
  const failure = useActionFailure(actionData);

  useEffect(() => {
    if (channelsError) toast.error(CHANNEL_TOASTS.loadChannelsFailedTitle, { description: channelsError });
    if (submissionsError) toast.error(CHANNEL_TOASTS.loadSubmissionsFailedTitle, { description: submissionsError });
  }, [channelsError, submissionsError]);

  // A refresh failure belongs to its channel's card (the module names it in `details`).
  const failureChannel = typeof failure?.details?.channelId === "string" ? failure.details.channelId : null;
  const confirmId = params.get("disconnect");
  const confirming = confirmId ? channels.find((c) => c.id === confirmId) : undefined;

  return (
    <div className="space-y-8">
      <PageHeader
        title="Channels"
        description="Link your YouTube channel, keep its numbers current, or submit a channel by hand for verification."
        actions={<ConnectButton label="Connect YouTube channel" />}
      />

      {failure && failure.intent !== "submit" && !(failureChannel && channels.some((c) => c.id === failureChannel)) ? (
        <FailureAlert failure={failure} className="p-4" />
      ) : null}

      <section aria-labelledby="linked-channels">
        <h2 id="linked-channels" className="text-lg font-semibold text-slate-900">
          Linked channels
        </h2>
        {channelsError ? (
          <LoadError title={CHANNEL_TOASTS.loadChannelsFailedTitle} message={channelsError} />
        ) : channels.length === 0 ? (
          <div className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center">
            <SquarePlay className="mx-auto h-8 w-8 text-slate-400" aria-hidden="true" />
            <p className="mt-2 font-medium text-slate-900">No YouTube channel linked yet</p>
            <p className="mt-1 text-sm text-slate-600">
              Connect your channel to track subscribers, views and videos. Your 12-month creator term starts with your first linked channel.
            </p>
          </div>
        ) : (
          <ul className="mt-3 grid grid-cols-1 gap-4 lg:grid-cols-2">
            {channels.map((c) => (
              <ChannelCard key={c.id} channel={c} failure={failureChannel === c.id ? failure : null} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="manual-submissions" className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div>
          <h2 id="manual-submissions" className="text-lg font-semibold text-slate-900">
            Manual submissions
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Can't link through YouTube? Submit your channel's details, then send it for verification. Verified channels count as connected.
          </p>
          {/* Keyed by the number of submissions: a successful one (there are no deletions) remounts the form empty; a refused one keeps what was typed. */}
          <ManualSubmissionForm key={`submissions-${submissions.length}`} failure={failure?.intent === "submit" ? failure : null} />
        </div>
        <div>
          <h3 className="text-base font-semibold text-slate-900">Your submissions</h3>
          {submissionsError ? (
            <LoadError title={CHANNEL_TOASTS.loadSubmissionsFailedTitle} message={submissionsError} />
          ) : submissions.length === 0 ? (
            <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">No manual submissions yet.</p>
          ) : (
            <ul className="mt-3 space-y-3">
              {submissions.map((s) => (
                <SubmissionItem key={s.id} submission={s} />
              ))}
            </ul>
          )}
        </div>
      </section>

      {confirming ? (
        <ConfirmDialog title="Disconnect channel?" cancelTo="/channels">
          <p className="text-sm text-slate-700">
            <strong>{confirming.title}</strong> will be removed from your account with its stored statistics, and Shortbeat's access to it will be revoked. You
            can connect it again later.
          </p>
          <ConfirmForm action="/channels" fields={{ intent: "disconnect", channelId: confirming.id }} label="Disconnect channel" />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function ConnectButton({ label, variant = "primary" }: { label: string; variant?: "primary" | "secondary" }) {
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
function FailureAlert({ failure, className }: { failure: ActionFailure; className: string }) {
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

function LoadError({ title, message }: { title: string; message: string }) {
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

function ChannelCard({ channel: c, failure }: { channel: LinkedChannel; failure: ActionFailure | null }) {
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
      {failure ? <FailureAlert failure={failure} className="mt-3 p-3" /> : null}
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

function ManualSubmissionForm({ failure }: { failure: ActionFailure | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "submit";
  const errors = failure?.errors ?? {};
  const values = failure?.values ?? {};
  return (
    <Card className="mt-3">
      <Form method="post" action="/channels" className="space-y-4" noValidate preventScrollReset>
        <input type="hidden" name="intent" value="submit" />
        {failure && !Object.keys(errors).length ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {failure.toast.title}: {failure.toast.description}
          </p>
        ) : null}
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

function SubmissionItem({ submission: s }: { submission: ManualSubmission }) {
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

export const ErrorBoundary = GeneralErrorBoundary;
