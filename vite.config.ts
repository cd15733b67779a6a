import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { devToolsBuilt } from "./app/dev/build-mode.ts";

// Miniflare would fetch a sample `Request.cf` object from Cloudflare on start; offline that logs
// an error. The local placeholder is all the app needs (it reads CF-Connecting-IP, not cf).
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

// SB_STATE_DIR lets the end-to-end suite run against its own local bindings,
// leaving the developer's demo data alone.
const stateDir = process.env.SB_STATE_DIR;

export default defineConfig(({ mode }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // Development tools (/dev/*) only in the `development`, `test` and `devtools` modes: app/routes.ts
  // leaves their routes out, and code behind this constant is dropped from the production bundle.
  define: { __DEV_TOOLS_BUILD__: JSON.stringify(devToolsBuilt(mode)) },
  // Pre-bundle the browser's dependencies so the first page load in dev does not trip over
  // Vite's dependency discovery ("Outdated Optimize Dep").
  // Local state folders are written by the app itself; watching them would reload the page.
  server: { watch: { ignored: ["**/.state*/**", "**/.wrangler/**"] } },
  optimizeDeps: {
    // Every package the browser's code imports: one found only when a page first asks for it makes
    // Vite re-bundle while the page runs, and the page then holds two copies of React ("Invalid hook
    // call", React's script-tag warning, hydration errors: issue 42 §4, seen on /admin's dialogs).
    // tests/unit/platform/optimize-deps.test.ts checks the list against app/'s imports.
    include: [
      "react",
      "react-dom",
      "react-dom/client",
      "react-router",
      "lucide",
      "zod",
      "recharts",
      "@radix-ui/react-dialog",
      "@radix-ui/react-dropdown-menu",
      "@radix-ui/react-tabs",
      "@mediapipe/tasks-vision",
    ],
  },
  // The browser's chunks: React, React DOM and React Router as one file, and every icon as one
  // file, instead of a dozen small ones per page. Each request costs a round trip on a phone's
  // network (Lighthouse counts every preloaded script before first paint): /dashboard preloaded
  // 30 files before, 20 after (docs/decisions/0189).
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
                { name: "icons", test: /node_modules[\\/]lucide[\\/]|app[\\/]ui[\\/]icons\.ts/ },
              ],
            },
          },
        },
      },
    },
  },
  // The thumbnail editor's segmentation worker is a module worker (app/modules/thumbnails/editor/segmenter.client.ts).
  // Its script goes under /ai-thumbnail-editor/offline/, inside the editor's service worker's scope: a
  // dedicated worker is controlled by the registration its own URL falls in, and that service
  // worker answers the model's downloads offline (docs/decisions/0251). Its files stay in /assets/.
  worker: {
    format: "es",
    rolldownOptions: {
      output: { entryFileNames: "ai-thumbnail-editor/offline/[name]-[hash].js", chunkFileNames: "ai-thumbnail-editor/offline/[name]-[hash].js" },
    },
  },
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      persistState: stateDir ? { path: stateDir } : true,
    }),
    tailwindcss(),
    reactRouter(),
  ],
}));
