import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { devToolsBuilt } from "./app/dev/build-mode.ts";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        define: { __DEV_TOOLS_BUILD__: JSON.stringify(devToolsBuilt("test")) },
        test: {
          name: "unit",
          environment: "node",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
        },
      },
      {
        // Builds the app (production and devtools modes) in temporary copies and reads the output.
        // Slow (two builds): its own project, so `unit` stays quick; `npm test` runs it as its own layer.
        test: {
          name: "build",
          environment: "node",
          include: ["tests/build/**/*.test.ts"],
          hookTimeout: 600_000,
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        // Vitest's mode is `test`: app/routes.ts includes the development tools (/dev/*) the tests use,
        // and code behind __DEV_TOOLS_BUILD__ (app/dev/build-mode.ts) is on.
        define: { __DEV_TOOLS_BUILD__: JSON.stringify(devToolsBuilt("test")) },
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                DEV_TOOLS: "1",
                APP_ORIGIN: "https://shortbeat.test",
                MEDIA_SIGNING_SECRET: "test-media-signing-secret",
                TOKEN_ENCRYPTION_KEY: "test-token-encryption-key",
                COOKIE_SECRET: "test-cookie-secret",
                ADMIN_RECOVERY_SECRET: "test-admin-recovery-secret",
                GOOGLE_CLIENT_ID: "shortbeat-local",
                GOOGLE_CLIENT_SECRET: "test-google-secret",
                GOOGLE_AUTHORIZE_URL: "/dev/oauth/authorize",
                GOOGLE_TOKEN_URL: "/dev/oauth/token",
                GOOGLE_USERINFO_URL: "/dev/oauth/userinfo",
                YOUTUBE_CHANNELS_URL: "/dev/oauth/youtube/channels",
                YOUTUBE_API_KEY: "test-youtube-key",
                STRIPE_SECRET_KEY: "sk_test_shortbeat_worker_tests",
                STRIPE_WEBHOOK_SECRET: "whsec_shortbeat_worker_tests",
                STRIPE_API_BASE: "/dev/stripe",
                // Instagram Login and TikTok Login Kit + Display API (decisions 0299, 0300): the stand-ins.
                TIKTOK_CLIENT_KEY: "shortbeat-local",
                TIKTOK_CLIENT_SECRET: "test-tiktok-secret",
                TIKTOK_AUTHORIZE_URL: "/dev/social/tiktok/auth/authorize/",
                TIKTOK_API_URL: "/dev/social/tiktok/api",
                INSTAGRAM_APP_ID: "990602627938098",
                INSTAGRAM_APP_SECRET: "test-instagram-secret",
                INSTAGRAM_AUTHORIZE_URL: "/dev/social/instagram/oauth/authorize",
                INSTAGRAM_TOKEN_URL: "/dev/social/instagram/oauth/access_token",
                INSTAGRAM_GRAPH_URL: "/dev/social/instagram/graph",
              },
              // A second, real Miniflare e-mail binding that refuses every recipient but one: the
              // delivery tests send through it to see retries and failures (tests/worker/platform/email-delivery.test.ts).
              email: { send_email: [{ name: "EMAIL" }, { name: "EMAIL_REFUSING", allowed_destination_addresses: ["nobody@shortbeat.test"] }] },
            },
          }),
          reactRouter(),
        ],
        test: {
          name: "worker",
          include: ["tests/worker/**/*.test.ts"],
          setupFiles: ["./tests/worker/apply-migrations.ts"],
          fsModuleCache: false,
          // The first request of a file compiles the whole app inside workerd: on a busy 2-core
          // machine that alone can take 30 s, so the first test or hook of a file gets room.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
