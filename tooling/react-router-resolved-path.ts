import type { Plugin } from "vite";
import { dependencyTransform, replaceOnce } from "./replace-once.ts";

// Every <Link> resolves its `to` twice per render (useHref and useLinkClickHandler each call
// useResolvedPath), and each time React Router writes the matched routes' pathnames as JSON and
// reads them back, to resolve a relative path against them. An absolute `to` ("/music/…", most of
// ours) never looks at them: resolveTo starts it from "/" whatever the routes and the location are.
// Links were 7 % of /music's CPU time per request (decision 0282).
//
// This transform gives useResolvedPath a way round for an absolute string: no JSON, and the
// resolved path comes from a per-isolate memory of resolveTo's answers (a fresh copy each time).
// Relative paths, objects and `relative="path"` go the way they always did. The memo stays small:
// it is emptied when it holds 1,000 paths.
//
// Each replacement must match exactly once, or the build fails and names it (./replace-once.ts).

const TARGET = /react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]hooks\.js$/;

const FIND =
  /let routePathnamesJson = JSON\.stringify\(getResolveToMatches\(matches\)\);\n\treturn React\$1\.useMemo\(\(\) => resolveTo\(to, JSON\.parse\(routePathnamesJson\), locationPathname, relative === "path"\), \[/;

const REPLACE =
  'let routePathnamesJson = __sbIsAbsolute(to) ? "" : JSON.stringify(getResolveToMatches(matches));\n\treturn React$1.useMemo(() => routePathnamesJson === "" ? __sbResolveAbsolute(to, resolveTo) : resolveTo(to, JSON.parse(routePathnamesJson), locationPathname, relative === "path"), [';

/** The way round, in plain JavaScript (it goes into React Router's module as it is); exported so that the unit test runs the very code the build inserts. */
export const RESOLVE_CODE = `
var __sbResolved = new Map();
function __sbIsAbsolute(to) {
	return typeof to === "string" && to.charCodeAt(0) === 47;
}
function __sbResolveAbsolute(to, resolveTo) {
	var path = __sbResolved.get(to);
	if (!path) {
		if (__sbResolved.size >= 1000) __sbResolved.clear();
		path = resolveTo(to, [], "/", false);
		__sbResolved.set(to, path);
	}
	return { pathname: path.pathname, search: path.search, hash: path.hash };
}
`;

/** React Router's hooks with useResolvedPath's way round for absolute paths; throws when its code is not as expected. */
export function resolvedPath(code: string): string {
  const where = { tool: "react-router-resolved-path", file: "react-router/dist/…/lib/hooks.js" };
  return replaceOnce(code, [{ name: "route pathnames as JSON (useResolvedPath)", find: FIND, replace: REPLACE }], where) + RESOLVE_CODE;
}

/** The Vite plugin: applies resolvedPath to React Router's hooks wherever they are bundled. */
export function reactRouterResolvedPath(): Plugin {
  return dependencyTransform("react-router-resolved-path", TARGET, resolvedPath);
}
