import { createRequestHandler, RouterContextProvider } from "react-router";
import { requestContext } from "../app/platform/context.server";
import { consumeNotifyQueue, type NotifyQueueMessage } from "../app/modules/notifications/notifications.server";
import { applySecurityHeaders, makeNonce, refuseCrossOrigin } from "../app/platform/headers.server";
import { NOTIFICATIONS_SOCKET_PATH, handleNotificationSocket } from "../app/modules/notifications/socket.server";
import { runDailyChannelRefresh } from "../app/modules/channels/channels-cron.server";

export { UserNotifier } from "./user-notifier";

const handleRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);

    // Plain-text liveness probe: the cheapest route, the benchmark's baseline.
    if (url.pathname === "/healthz") {
      return applySecurityHeaders(new Response("ok", { headers: { "Content-Type": "text/plain" } }), null, url);
    }

    // Every state-changing request must come from our own pages: refuse before any action,
    // resource route or socket code runs.
    const refused = refuseCrossOrigin(request, env);
    if (refused) return applySecurityHeaders(refused, null, url);

    // The notifications WebSocket (Origin + session checked there), before React Router.
    if (url.pathname === NOTIFICATIONS_SOCKET_PATH) {
      return applySecurityHeaders(await handleNotificationSocket(request), null, url);
    }

    const nonce = makeNonce();
    const context = new RouterContextProvider();
    context.set(requestContext, { nonce, ctx });
    const response = await handleRequest(request, context);
    return applySecurityHeaders(response, nonce, url);
  },

  // The daily cron trigger (wrangler.toml): refresh every linked channel's statistics.
  async scheduled(_controller, _env, ctx) {
    ctx.waitUntil(runDailyChannelRefresh());
  },

  // Large notification fan-outs (NOTIFY_QUEUE): push to each recipient's Durable Object.
  async queue(batch) {
    await consumeNotifyQueue(batch as MessageBatch<NotifyQueueMessage>);
  },
} satisfies ExportedHandler<Env>;
