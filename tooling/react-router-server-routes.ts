import type { Plugin } from "vite";
import { dependencyTransform, replaceOnce } from "./replace-once.ts";

// On every page it renders, React Router's <ServerRouter> builds the app's route tree again from the
// build's manifest (createServerRoutes: a route object and its components for each of about a
// hundred routes), and createStaticRouter converts that tree into data routes again
// (convertRoutesToDataRoutes). Both depend only on the build, never on the request; together they
// were 3.5–4 % of a signed-in page's CPU time (decision 0283).
//
// This transform keeps both per isolate:
// - the route tree per manifest (a WeakMap keyed by the build's `assets.routes`), used again only
//   while every route's module is the very module it was built from (a build reloaded in
//   development gets a new tree);
// - the data routes and their id → route manifest per route tree (a WeakMap keyed by the tree).
// The static router never changes either: on the server, patchRoutes and _internalSetRoutes throw.
//
// Each replacement must match exactly once, or the build fails and names it (./replace-once.ts).

const SSR_SERVER = /react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]dom[\\/]ssr[\\/]server\.js$/;
const DOM_SERVER = /react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]dom[\\/]server\.js$/;

/** The per-isolate memories, in plain JavaScript (they go into React Router's modules as they are); exported so that the unit test runs the very code the build inserts. */
export const SERVER_ROUTES_CODE = `
var __sbServerRouteTrees = new WeakMap();
function __sbServerRoutes(manifestRoutes, routeModules, isSpaMode, build) {
	var kept = __sbServerRouteTrees.get(manifestRoutes);
	if (kept && kept.isSpaMode === isSpaMode && Object.keys(manifestRoutes).every(function (id) { return kept.modules[id] === routeModules[id]; })) return kept.routes;
	var routes = build();
	var modules = {};
	Object.keys(manifestRoutes).forEach(function (id) { modules[id] = routeModules[id]; });
	__sbServerRouteTrees.set(manifestRoutes, { isSpaMode: isSpaMode, modules: modules, routes: routes });
	return routes;
}
`;

export const DATA_ROUTES_CODE = `
var __sbDataRouteTrees = new WeakMap();
function __sbDataRoutes(routes, convert) {
	var kept = __sbDataRouteTrees.get(routes);
	if (!kept) {
		var manifest = {};
		kept = { manifest: manifest, dataRoutes: convert(routes, manifest) };
		__sbDataRouteTrees.set(routes, kept);
	}
	return kept;
}
`;

/** React Router's <ServerRouter> with the route tree kept per manifest; throws when its code is not as expected. */
export function serverRoutes(code: string): string {
  const where = { tool: "react-router-server-routes", file: "react-router/dist/…/lib/dom/ssr/server.js" };
  return (
    replaceOnce(
      code,
      [
        {
          name: "route tree (ServerRouter)",
          find: /let routes = createServerRoutes\(manifest\.routes, routeModules, context\.future, context\.isSpaMode\);/,
          replace:
            "let routes = __sbServerRoutes(manifest.routes, routeModules, context.isSpaMode, () => createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode));",
        },
      ],
      where,
    ) + SERVER_ROUTES_CODE
  );
}

/** React Router's createStaticRouter with the data routes kept per route tree; throws when its code is not as expected. */
export function dataRoutes(code: string): string {
  const where = { tool: "react-router-server-routes", file: "react-router/dist/…/lib/dom/server.js" };
  return (
    replaceOnce(
      code,
      [
        {
          name: "data routes (createStaticRouter)",
          find: /let manifest = \{\};\n\tlet dataRoutes = convertRoutesToDataRoutes\(routes, void 0, void 0, manifest\);/,
          replace: "let { manifest, dataRoutes } = __sbDataRoutes(routes, (tree, manifest) => convertRoutesToDataRoutes(tree, void 0, void 0, manifest));",
        },
      ],
      where,
    ) + DATA_ROUTES_CODE
  );
}

/** The Vite plugins: apply serverRoutes and dataRoutes to React Router's server modules wherever they are bundled. */
export function reactRouterServerRoutes(): Plugin[] {
  return [dependencyTransform("react-router-server-routes", SSR_SERVER, serverRoutes), dependencyTransform("react-router-data-routes", DOM_SERVER, dataRoutes)];
}
