import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { RESOLVE_CODE, resolvedPath } from "../../../tooling/react-router-resolved-path";

// The build's way round for <Link>s to absolute paths (tooling/react-router-resolved-path.ts,
// docs/decisions/0282): useResolvedPath skips the matched routes' JSON for an absolute string and
// answers from a memory of resolveTo's answers. The answer must be React Router's own whatever the
// routes and the location are, and a caller that changes it must not change the next one's.

type Path = { pathname: string; search: string; hash: string };
type ResolveTo = (to: unknown, routePathnames: string[], locationPathname: string, isPathRelative?: boolean) => Path;
let rrResolveTo: ResolveTo;
beforeAll(async () => {
  const utils = join(import.meta.dirname, "../../../node_modules/react-router/dist/production/lib/router/utils.js");
  rrResolveTo = ((await import(pathToFileURL(utils).href)) as { resolveTo: ResolveTo }).resolveTo;
});

const inserted = new Function(`${RESOLVE_CODE}; return { isAbsolute: __sbIsAbsolute, resolveAbsolute: __sbResolveAbsolute };`)() as {
  isAbsolute: (to: unknown) => boolean;
  resolveAbsolute: (to: string, resolve: ResolveTo) => Path;
};

const ABSOLUTE = [
  "/",
  "/music",
  "/music/",
  "/music/similar/00000000-0000-4000-8000-000000001040",
  "/music?genre=Pop&page=2",
  "/music/?q=rain#results",
  "/clipping#invite",
  "/a/./b/../c",
  "/a//b",
  "/admin/users/42/",
  "/%E2%9C%93?x=%20",
];
const ROUTES = [[], ["/"], ["/", "/music"], ["/", "/admin", "/admin/users/42"]];
const LOCATIONS = ["/", "/music", "/music/", "/admin/users/42/", "/clipping"];

describe("useResolvedPath's way round for absolute paths", () => {
  it("answers what React Router's resolveTo answers, for every matched route list and location", () => {
    for (const to of ABSOLUTE) {
      expect(inserted.isAbsolute(to)).toBe(true);
      for (const routes of ROUTES) {
        for (const location of LOCATIONS) {
          for (const relativePath of [false, true]) {
            expect(inserted.resolveAbsolute(to, rrResolveTo), `${to} from ${location}`).toEqual(rrResolveTo(to, routes, location, relativePath));
          }
        }
      }
    }
  });

  it("leaves relative paths, objects and the empty path to React Router's own way", () => {
    for (const to of ["", ".", "..", "music", "./x", "../y", "?q=1", "#top", { pathname: "/music" }, undefined]) {
      expect(inserted.isAbsolute(to)).toBe(false);
    }
  });

  it("gives each caller its own copy", () => {
    const first = inserted.resolveAbsolute("/music?x=1", rrResolveTo);
    first.pathname = "/changed";
    expect(inserted.resolveAbsolute("/music?x=1", rrResolveTo)).toEqual({ pathname: "/music", search: "?x=1", hash: "" });
  });

  it("changes React Router's production and development hooks exactly once", () => {
    for (const build of ["production", "development"]) {
      const code = readFileSync(join(import.meta.dirname, `../../../node_modules/react-router/dist/${build}/lib/hooks.js`), "utf8");
      const out = resolvedPath(code);
      expect(out).toContain('__sbIsAbsolute(to) ? "" : JSON.stringify(getResolveToMatches(matches))');
      expect(out.match(/JSON\.stringify\(getResolveToMatches\(matches\)\)/g)).toHaveLength(2); // useNavigateUnstable's is left as it is
      expect(() => resolvedPath(out)).toThrow(/react-router-resolved-path: expected one route pathnames as JSON/);
    }
  });
});
