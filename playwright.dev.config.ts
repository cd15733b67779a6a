import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/chromium.mjs";

// The dev-server browser project (issue 26): `npm run dev` started from nothing on its own state,
// one journey per role (tests/e2e-dev). Part of `npm test`, after the production-build suite.
const port = Number(process.env.E2E_DEV_PORT ?? 5198);

export default defineConfig({
  testDir: "tests/e2e-dev",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // The dev server compiles each module on its first request: the first visit of a page is slow.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    command: "node scripts/e2e-dev-server.mjs",
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 300_000,
    env: { E2E_DEV_PORT: String(port) },
    stdout: "ignore",
    stderr: "pipe",
  },
});
