import type { ServerBuild } from "react-router";
import { unstable_preloadRoutePattern } from "react-router/route-pattern";

// URL matching on the server with React Router's route-pattern matcher (docs/decisions/0230).
//
// React Router matches a document request's URL three times (the request handler, the static
// handler's query, and the partial manifest of the page's ancestors). Its default matcher tries
// the app's ~90 route branches one after the other with a regular expression each: about 0.2 ms a
// match. `future.unstable_routePatternMatching` uses @remix-run/route-pattern's multi-matcher
// instead, which indexes the patterns: about a quarter of that. tests/unit/route-matching.test.ts
// checks that both matchers give the same route and params for every route of app/routes.ts.
//
// The flag is the server's alone. React Router hands the build's `future` object to the browser
// (JSON in the page's handoff script), and the browser would then need the matcher's code, which
// it does not load: the flag is set non-enumerable, so the server reads it and JSON.stringify
// leaves it out. The browser keeps its default matcher; the two agree on every route.

unstable_preloadRoutePattern();

export const ROUTE_PATTERN_FLAG = "unstable_routePatternMatching";

/** The server build with route-pattern matching on for the server's static handler only. */
export function withRoutePatternMatching(build: ServerBuild): ServerBuild {
  const future = Object.defineProperty({ ...build.future }, ROUTE_PATTERN_FLAG, { value: true, enumerable: false });
  return { ...build, future };
}
