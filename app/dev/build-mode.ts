/**
 * Which builds contain the development tools under /dev/* (mailbox, stand-in Google provider,
 * factory, password bench, /dev/throw). Decided at build time from the Vite mode, so the plain
 * `react-router build` (mode `production`, what is deployed) has neither the routes nor their
 * modules. See docs/decisions/0009-dev-routes-build-mode.md.
 * - `development`: `npm run dev` (react-router dev)
 * - `test`: the worker test project (vitest)
 * - `devtools`: `react-router build --mode devtools` (`npm run build:devtools`), the build the browser
 *   tests and the benchmarks serve (scripts/e2e-server.mjs), and `react-router typegen --mode devtools`
 * At run time the routes also answer 404 unless the DEV_TOOLS=1 variable is set (.dev.vars).
 */
export const DEV_TOOLS_MODES: readonly string[] = ["development", "test", "devtools"];

export function devToolsBuilt(mode: string): boolean {
  return DEV_TOOLS_MODES.includes(mode);
}

declare global {
  /**
   * `devToolsBuilt(mode)` of this build, a constant replaced at build time (`define` in
   * vite.config.ts and vitest.config.ts): code that only the development tools need sits behind it,
   * so the production bundle drops it. (A global rather than an import.meta.env key: inside the
   * worker test pool import.meta.env holds the Worker's bindings.)
   */
  const __DEV_TOOLS_BUILD__: boolean;
}
