import { useEffect } from "react";
import { redirect, useSearchParams } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { DomainError } from "~/lib/errors";
import type { ToastInput } from "~/lib/toast";
import { actorOf, type SessionUser } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import {
  channelsPage,
  clearChannelLinkCookie,
  completeChannelLink,
  createManualSubmission,
  declareSocialHandles,
  disconnectChannel,
  refreshChannel,
  startChannelLink,
  startSocialLink,
  submitForVerification,
  unlinkSocialAccount,
} from "~/modules/channels/channels.server";
import {
  ChannelCard,
  ConnectButton,
  ChannelFailureAlert,
  LoadError,
  ManualSubmissionForm,
  SocialHandlesForm,
  SubmissionItem,
} from "~/modules/channels/components/channels-page";
import { SocialAccountsPanel } from "~/modules/channels/components/social-accounts";
import { CHANNEL_TOASTS, HANDLE_MESSAGES, SOCIAL_LABELS } from "~/modules/channels/messages";
import { CHANNEL_ACTION_TITLES, channelActionSchema } from "~/modules/channels/schema";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast, setToastCookie } from "~/platform/toast.server";
import { useActionFailure } from "~/ui/action-failure";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { ConfirmForm } from "~/ui/confirm-form";
import { SquarePlay } from "~/ui/icons";
import { PageHeader } from "~/ui/page-header";
import { toast } from "~/ui/toaster";
import type { Route } from "./+types/channels";

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
    case "handles":
      await declareSocialHandles(actor, request, { tiktok: input.tiktok, instagram: input.instagram });
      return redirectWithToast(request, "/channels", { type: "success", ...HANDLE_MESSAGES.saved });
    case "link-social": {
      // A document POST: the answer is a redirect to Instagram's / TikTok's login.
      const { location, setCookie } = await startSocialLink(actor, request, input.platform);
      return redirect(location, { headers: { "Set-Cookie": setCookie } });
    }
    case "unlink-social":
      await unlinkSocialAccount(actor, request, input.platform);
      return redirectWithToast(request, "/channels", {
        type: "success",
        title: `${SOCIAL_LABELS[input.platform]} unlinked`,
        description: `Its authorization is deleted from Shortbeat.`,
      });
  }
}, CHANNEL_ACTION_TITLES);

// ---------------------------------------------------------------------------------------------

export default function Channels({ loaderData, actionData }: Route.ComponentProps) {
  const { channels, submissions, channelsError, submissionsError, handles, socialAccounts } = loaderData;
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
        description="Link your YouTube channel, keep its numbers current, declare your TikTok and Instagram handles, or submit a channel by hand for verification."
        actions={<ConnectButton label="Connect YouTube channel" />}
      />

      {failure &&
      failure.intent !== "submit" &&
      failure.intent !== "handles" &&
      failure.intent !== "link-social" &&
      failure.intent !== "unlink-social" &&
      !(failureChannel && channels.some((c) => c.id === failureChannel)) ? (
        <ChannelFailureAlert failure={failure} className="p-4" />
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

      <section aria-labelledby="social-accounts">
        <h2 id="social-accounts" className="text-lg font-semibold text-slate-900">
          TikTok and Instagram accounts
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Link your accounts so campaign videos you post there are confirmed as yours at once and their views are read daily. Instagram needs a professional
          (business or creator) account.
        </p>
        {failure && (failure.intent === "link-social" || failure.intent === "unlink-social") ? (
          <ChannelFailureAlert failure={failure} className="mt-3 p-4" />
        ) : null}
        <SocialAccountsPanel accounts={socialAccounts} />
        <h3 className="mt-6 text-base font-semibold text-slate-900">Your handles</h3>
        <p className="mt-1 text-sm text-slate-600">Your handles there, shown to admins beside your videos.</p>
        <SocialHandlesForm handles={handles} failure={failure?.intent === "handles" ? failure : null} />
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

export const ErrorBoundary = GeneralErrorBoundary;
