// First: the domains' hooks into accounts and notifications (issue 32, decision 0239).
import "../app/wiring.server";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { requestContext } from "../app/platform/context.server";
import { withResponseCookies } from "../app/platform/cookies.server";
import { withD1Session, withRequestSession } from "../app/platform/db.server";
import { consumeNotifyQueue, openNotificationSocket, type NotifyQueueMessage } from "../app/modules/notifications/notifications.server";
import { NOTIFICATIONS_SOCKET_PATH } from "../app/modules/notifications/protocol";
import { openChatSocket } from "../app/modules/chat/chat.server";
import { CHAT_SOCKET_PATH } from "../app/modules/chat/protocol";
import { applyPrivateCaching, applySecurityHeaders, makeNonce, makeRequestId, refuseCrossOrigin } from "../app/platform/headers.server";
import { domainResource } from "../app/platform/http.server";
import { drainUnreadBody } from "../app/platform/body.server";
import { refuseNonUpgrade } from "../app/platform/realtime.server";
import { ON_DEV_SERVER, withDevServerOrigin } from "../app/platform/env.server";
import { runDailyChannelRefresh } from "../app/modules/channels/channels.server";
import {
  consumePayoutQueue,
  deleteStaleUploads,
  discardAbandonedImports,
  PAYOUT_QUEUE_NAME,
  type PayoutQueueMessage,
  startPayoutDay,
} from "../app/modules/payments/payments.server";
import { ensureDemoRetentionSnapshot, runRetentionAggregates } from "../app/modules/growth/growth.server";
import { notifyEndedCampaigns, refreshCampaignViews } from "../app/modules/campaigns/campaigns.server";
import { refreshClipViews } from "../app/modules/clipping/clipping.server";
import { sweepOutbox } from "../app/platform/email-delivery.server";
import { runPrivacyJobs } from "../app/modules/privacy/privacy.server";
import { consumePreviewQueue, PREVIEW_QUEUE_NAME, type PreviewQueueMessage, runPreviewRepair } from "../app/modules/music/preview.server";

export { UserNotifier } from "./user-notifier";
export { RateLimiter } from "./rate-limiter";
// One object per chat room (issue 17, docs/decisions/0160).
export { ChatRoom } from "./chat-room";
// Slices of large notification fan-outs, each in an invocation of its own (decision 0088).
export { NotifyFanOut } from "./notify-fan-out";
// The payout day's durable steps (issue 45, docs/decisions/0331).
export { PayoutDayWorkflow } from "./payout-day";
// A month's revenue report of any size, read from R2 in durable steps (issue 45 §1, docs/decisions/0334).
export { RevenueImportWorkflow } from "./revenue-import";

// Given a function, React Router re-derives its routes and static handler on every request (so
// that development picks up edits). Built, the server build never changes: derive once per isolate
// (docs/decisions/0080-dashboard-speed.md).
const loadBuild = () => import("virtual:react-router/server-build");
let builtHandler: ReturnType<typeof createRequestHandler> | undefined;
const handleRequest: ReturnType<typeof createRequestHandler> = import.meta.env.DEV
  ? createRequestHandler(loadBuild, import.meta.env.MODE)
  : async (request, context) => {
      builtHandler ??= createRequestHandler(await loadBuild(), import.meta.env.MODE);
      return builtHandler(request, context);
    };

async function answer(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  // One id per request: the X-Request-Id header of every answer, the request context, error logs.
  const requestId = makeRequestId();

  // Plain-text liveness probe: the cheapest route, the benchmark's baseline.
  if (url.pathname === "/healthz") {
    return applySecurityHeaders(new Response("ok", { headers: { "Content-Type": "text/plain" } }), null, url, requestId);
  }

  // Every state-changing request must come from our own pages: refuse before any action,
  // resource route or socket code runs.
  const refused = refuseCrossOrigin(request, env);
  if (refused) return applySecurityHeaders(refused, null, url, requestId);

  // The notifications WebSocket (Origin + session checked there), before React Router.
  if (url.pathname === NOTIFICATIONS_SOCKET_PATH) {
    const answer = refuseNonUpgrade(request) ?? (await domainResource(openNotificationSocket)(request));
    return applySecurityHeaders(answer, null, url, requestId);
  }

  // A chat room's WebSocket (Origin, session, approval, ban and room checked there).
  if (url.pathname === CHAT_SOCKET_PATH) {
    const answer = refuseNonUpgrade(request) ?? (await domainResource(openChatSocket)(request));
    return applySecurityHeaders(answer, null, url, requestId);
  }

  const nonce = makeNonce();
  const context = new RouterContextProvider();
  context.set(requestContext, { nonce, requestId, ctx });
  const response = withResponseCookies(await handleRequest(request, context), context.get(requestContext));
  return applySecurityHeaders(applyPrivateCaching(request, response, url), nonce, url, requestId);
}

/**
 * A background unit of work (a daily job, a queue batch) in its own D1 session, on the primary
 * (docs/decisions/0232). The job is called with no argument: its optional parameters (a `now`, a
 * batch size) must not receive the session.
 */
const onPrimary = <T>(work: () => Promise<T>): Promise<T> => withD1Session("first-primary", () => work());

/** The frequent cron trigger that only sweeps the outbox; every other trigger is the daily run. */
const OUTBOX_SWEEP_CRON = "*/5 * * * *";

/**
 * `npm run dev` only: the demo's retention snapshot, taken before the dev server's first answer when
 * the daily job has not run yet (a fresh install), so /user-retention shows the seeded figures
 * (issue 31, docs/decisions/0258). Once per isolate; a failure is logged and tried again next time.
 */
let demoSnapshot: Promise<void> | null = null;
function demoRetentionSnapshot(): Promise<void> {
  demoSnapshot ??= onPrimary(ensureDemoRetentionSnapshot).catch((error) => {
    console.error("demo retention snapshot failed", error);
    demoSnapshot = null;
  });
  return demoSnapshot;
}

export default {
  async fetch(request, env, ctx) {
    if (ON_DEV_SERVER) await demoRetentionSnapshot();
    // One D1 session per request, its bookmark in a cookie (docs/decisions/0232).
    const response = await withDevServerOrigin(new URL(request.url), () => withRequestSession(request, () => answer(request, env, ctx)));
    // A body the answer did not read is read before answering: the dev server's proxy would
    // otherwise answer 500 instead of the Worker's own refusal (docs/decisions/0190).
    await drainUnreadBody(request);
    return response;
  },

  // The cron triggers (wrangler.toml). Every run sends the outbox's due e-mail (retries with
  // backoff, and any a request could not send at once: docs/decisions/0210).
  async scheduled(controller, _env, ctx) {
    ctx.waitUntil(onPrimary(sweepOutbox).catch((error) => console.error("outbox sweep failed", error)));
    if (controller.cron === OUTBOX_SWEEP_CRON) return;
    // The daily run: refresh every linked channel's statistics.
    ctx.waitUntil(onPrimary(runDailyChannelRefresh));
    // On and after the payout day, the month's run starts as a Workflow (once per month: its id is fixed;
    // issue 45, decision 0331) that gathers finalized balances into payouts and queues the Stripe ones;
    // every day, what still waits from earlier runs goes on the queue again (issue 29).
    ctx.waitUntil(onPrimary(() => startPayoutDay()));
    // Revenue previews left staged for over a day are discarded with their entries (issue 14).
    ctx.waitUntil(onPrimary(discardAbandonedImports));
    // Revenue files left waiting for a column mapping for over a day are deleted from R2 (issue 29).
    ctx.waitUntil(onPrimary(deleteStaleUploads));
    // /user-retention: the people snapshot, and weekly active users and cohorts of completed weeks (issue 18).
    ctx.waitUntil(onPrimary(runRetentionAggregates));
    // Participants of campaigns that ended by their date are told once (issue 15).
    ctx.waitUntil(onPrimary(notifyEndedCampaigns));
    // The privacy policy kept (issue 28, docs/privacy.md): deletions whose 30 days are over, then
    // retention (audit log 12 months, CSP reports, ended sessions, e-mail bodies, and source uploads
    // left incomplete for 24 h, aborted in R2 and dropped as issue 16 did here).
    ctx.waitUntil(onPrimary(runPrivacyJobs));
    // Approved YouTube Shorts clips: their views from the provider (issue 16, decision 0154).
    ctx.waitUntil(onPrimary(refreshClipViews));
    // Campaign submissions on every platform: their views through the views provider (issue 30, decision 0266).
    ctx.waitUntil(onPrimary(refreshCampaignViews));
    // WAV tracks without a server-made preview get one (the browser-made ones migration 0032 cleared),
    // and preview objects no track refers to are deleted (docs/decisions/0326).
    ctx.waitUntil(onPrimary(() => runPreviewRepair()).catch((error) => console.error("preview repair failed", error)));
  },

  // Large notification fan-outs (NOTIFY_QUEUE): push to each recipient's Durable Object. Music
  // previews (PREVIEW_QUEUE): made from the stored master (docs/decisions/0289). Payouts
  // (PAYOUT_QUEUE): one Stripe transfer per message, paced to Stripe's rate limit (decision 0331).
  async queue(batch) {
    if (batch.queue === PAYOUT_QUEUE_NAME) {
      await onPrimary(() => consumePayoutQueue(batch as MessageBatch<PayoutQueueMessage>));
      return;
    }
    if (batch.queue === PREVIEW_QUEUE_NAME) {
      await onPrimary(() => consumePreviewQueue(batch as MessageBatch<PreviewQueueMessage>));
      return;
    }
    await onPrimary(() => consumeNotifyQueue(batch as MessageBatch<NotifyQueueMessage>));
  },
} satisfies ExportedHandler<Env>;
