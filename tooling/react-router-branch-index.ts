import type { Plugin } from "vite";
import { dependencyTransform, replaceOnce } from "./replace-once.ts";

// React Router matches a URL against its route branches one after the other, each with a regular
// expression per level, until one matches: about a hundred branches here, and a request matches
// three times (the server's match, the static handler's query, the manifest sent to the browser,
// which also matches "/"). That was 10 % of /dashboard's CPU time (matchRouteBranch, 230 of 2,417 ms
// in the profile), and CPU time per request is what Cloudflare bills and caps (docs/decisions/0276).
//
// This transform lets matchRoutesImpl look at only the branches that can match: a branch whose
// path starts with a literal segment ("/music/…") can only match a URL whose first segment is that
// word (its regular expression starts with "^/music" and ends that segment with "/", the end or
// nothing more); branches that start with a parameter, an optional or a splat, or have no segment
// at all, can match anything and are kept for every URL. The candidates keep the ranked order, and
// React Router's own matchRouteBranch decides as before, so the first match is the same branch.
// The index is built once per ranked branch list (React Router ranks once per route tree) and
// kept in a WeakMap beside it.
//
// Each replacement must match exactly once, or the build fails and names it (./replace-once.ts).

const TARGET = /react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]router[\\/]utils\.js$/;

const FIND = /let branches = precomputedBranches \?\? flattenAndRankRoutes\(routes\);\n\tlet matches = null;\n\tlet decoded = decodePath\(pathname\);\n/;

const REPLACE =
  "let matches = null;\n\tlet decoded = decodePath(pathname);\n\tlet branches = precomputedBranches ? __sbCandidateBranches(precomputedBranches, decoded) : flattenAndRankRoutes(routes);\n";

/**
 * The index, in plain JavaScript (it goes into React Router's module as it is). Exported as a
 * string so that the unit test runs the very code the build inserts.
 */
export const INDEX_CODE = `
var __sbBranchIndexes = new WeakMap();
function __sbLiteralFirstSegment(path) {
	var segments = path.split("/");
	var i = 0;
	while (i < segments.length && segments[i] === "") i++;
	if (i === segments.length) return null;
	var first = segments[i];
	return /[:*?()]/.test(first) ? null : first.toLowerCase();
}
function __sbIndexBranches(branches) {
	var keys = branches.map(function (branch) { return __sbLiteralFirstSegment(branch.path); });
	var open = branches.filter(function (_, i) { return keys[i] === null; });
	var bySegment = new Map();
	keys.forEach(function (key) {
		if (key !== null && !bySegment.has(key)) bySegment.set(key, branches.filter(function (_, i) { return keys[i] === key || keys[i] === null; }));
	});
	return { open: open, bySegment: bySegment };
}
function __sbCandidateBranches(branches, decoded) {
	var index = __sbBranchIndexes.get(branches);
	if (!index) {
		index = __sbIndexBranches(branches);
		__sbBranchIndexes.set(branches, index);
	}
	var first = decoded.split("/", 2)[1];
	return (first ? index.bySegment.get(first.toLowerCase()) : undefined) || index.open;
}
`;

/** React Router's router utilities with matchRoutesImpl looking only at candidate branches; throws when its code is not as expected. */
export function branchIndex(code: string): string {
  const where = { tool: "react-router-branch-index", file: "react-router/dist/…/lib/router/utils.js" };
  // flattenRoutes must still keep each branch's full path: the index reads it.
  replaceOnce(code, [{ name: "branch with its path (flattenRoutes)", find: /\bbranches\.push\(\{\n\t\t\tpath,/, replace: "" }], where);
  return replaceOnce(code, [{ name: "branch loop (matchRoutesImpl)", find: FIND, replace: REPLACE }], where) + INDEX_CODE;
}

/** The Vite plugin: applies branchIndex to React Router's router utilities wherever they are bundled. */
export function reactRouterBranchIndex(): Plugin {
  return dependencyTransform("react-router-branch-index", TARGET, branchIndex);
}
