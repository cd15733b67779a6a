import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_ROUTES_CODE, dataRoutes, SERVER_ROUTES_CODE, serverRoutes } from "../../../tooling/react-router-server-routes";

// The build keeps React Router's server route tree and its data routes per isolate
// (tooling/react-router-server-routes.ts, docs/decisions/0283). The memories must answer the same
// tree only for the same build: the same manifest with the very same route modules, the same
// SPA mode; anything else is built again.

type Routes = { id: string }[];
const inserted = new Function(`${SERVER_ROUTES_CODE}${DATA_ROUTES_CODE}; return { serverRoutes: __sbServerRoutes, dataRoutes: __sbDataRoutes };`)() as {
  serverRoutes: (manifestRoutes: object, routeModules: Record<string, unknown>, isSpaMode: boolean, build: () => Routes) => Routes;
  dataRoutes: (
    routes: Routes,
    convert: (tree: Routes, manifest: Record<string, unknown>) => Routes,
  ) => { manifest: Record<string, unknown>; dataRoutes: Routes };
};

const manifestRoutes = { root: { id: "root" }, "routes/a": { id: "routes/a", parentId: "root" } };
const modules = () => ({ root: { default: () => null }, "routes/a": { default: () => null } });

describe("the server route tree, kept per build", () => {
  it("is built once for the same manifest and the same modules, though each request brings its own modules object", () => {
    const m = modules();
    let builds = 0;
    const build = () => {
      builds++;
      return [{ id: "root" }];
    };
    const first = inserted.serverRoutes(manifestRoutes, { ...m }, false, build);
    expect(inserted.serverRoutes(manifestRoutes, { ...m }, false, build)).toBe(first);
    expect(builds).toBe(1);
  });

  it("is built again when a route's module is another (a reloaded build), the SPA mode differs, or the manifest is another", () => {
    const m = modules();
    let builds = 0;
    const build = () => {
      builds++;
      return [{ id: `tree ${builds}` }];
    };
    const manifest = { ...manifestRoutes };
    const first = inserted.serverRoutes(manifest, m, false, build);
    const reloaded = inserted.serverRoutes(manifest, { ...m, "routes/a": { default: () => null } }, false, build);
    expect(reloaded).not.toBe(first);
    expect(inserted.serverRoutes(manifest, m, true, build)).not.toBe(reloaded);
    expect(inserted.serverRoutes({ ...manifest }, m, true, build)).not.toBe(first);
    expect(builds).toBe(4);
  });

  it("keeps the data routes and their manifest per route tree", () => {
    let converts = 0;
    const convert = (tree: Routes, manifest: Record<string, unknown>) => {
      converts++;
      const out = tree.map((r) => ({ ...r }));
      for (const r of out) manifest[r.id] = r;
      return out;
    };
    const tree = [{ id: "root" }];
    const first = inserted.dataRoutes(tree, convert);
    expect(first.manifest.root).toBe(first.dataRoutes[0]);
    expect(inserted.dataRoutes(tree, convert)).toBe(first);
    expect(inserted.dataRoutes([{ id: "root" }], convert)).not.toBe(first);
    expect(converts).toBe(2);
  });

  it("changes React Router's production and development server modules exactly once", () => {
    for (const build of ["production", "development"]) {
      const dir = join(import.meta.dirname, `../../../node_modules/react-router/dist/${build}/lib/dom`);
      const ssr = serverRoutes(readFileSync(join(dir, "ssr/server.js"), "utf8"));
      expect(ssr).toContain("let routes = __sbServerRoutes(manifest.routes, routeModules, context.isSpaMode, () => createServerRoutes(");
      expect(() => serverRoutes(ssr)).toThrow(/react-router-server-routes: expected one route tree/);
      const dom = dataRoutes(readFileSync(join(dir, "server.js"), "utf8"));
      expect(dom).toContain("let { manifest, dataRoutes } = __sbDataRoutes(routes,");
      expect(() => dataRoutes(dom)).toThrow(/react-router-server-routes: expected one data routes/);
    }
  });
});
