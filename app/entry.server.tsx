// Zod parses without `new Function` before any schema runs (CSP forbids eval): app/lib/zod-config.ts.
import "./lib/zod-config";
import { isbot } from "isbot";
// React's Node build of the server renderer, whose renderToReadableStream writes HTML text straight
// into a 4 KB byte view (TextEncoder.encodeInto), where the edge build encodes every attribute, tag
// and text into a new array of its own first: in workerd each such call costs ~2 µs, thousands a page.
// It is React's own public entry (React picks it for Deno, another Web-streams runtime); workerd
// runs it through nodejs_compat (util, crypto, async_hooks, stream). Decision 0318.
import { renderToReadableStream } from "react-dom/server.node";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { requestContext } from "~/platform/context.server";

export const streamTimeout = 5_000;

/** The request id workers/app.ts put in the context ("unknown" if the context never got one). */
function requestIdOf(context: Readonly<RouterContextProvider> | undefined): string {
  try {
    return context?.get(requestContext).requestId ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * One structured log line per unexpected error, with the request's id (the X-Request-Id header
 * and the error screen show the same id, so a user's report leads to this line). Workers Logs
 * index the object's fields.
 */
function logUnexpectedError(error: unknown, request: Request, requestId: string) {
  // React Router wraps some errors (a 404 of no route, a bad request) in a route error response.
  const wrapped = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  const cause = wrapped ?? error;
  const url = new URL(request.url);
  console.error({
    message: "Unexpected error",
    requestId,
    method: request.method,
    path: url.pathname,
    error: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
    stack: cause instanceof Error ? cause.stack : undefined,
  });
}

/**
 * React Router calls this for every error it did not expect: a loader, action or render that
 * threw something other than a Response (a DomainError never gets here: domainLoader/domainAction
 * turn it into its answer). Requests the client abandoned are not errors.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  logUnexpectedError(error, request, requestIdOf(context));
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce, requestId } = loadContext.get(requestContext);
  let shellRendered = false;
  const userAgent = request.headers.get("user-agent");

  const body = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
    nonce,
    onError(error: unknown) {
      responseStatusCode = 500;
      // Errors while rendering the shell reject the promise (React Router then calls handleError);
      // log the ones after it.
      if (shellRendered) logUnexpectedError(error, request, requestId);
    },
  });
  shellRendered = true;

  // Crawlers and no-JS clients get the whole document at once.
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) {
    await body.allReady;
  }

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
