import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          include: ["tests/unit/**/*.test.ts"],
        },
      },
      {
        resolve: { alias },
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
              },
            },
          }),
          reactRouter(),
        ],
        test: {
          name: "worker",
          include: ["tests/worker/**/*.test.ts"],
          setupFiles: ["./tests/worker/apply-migrations.ts"],
          fsModuleCache: false,
          // The first request of a file compiles the whole app inside workerd.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
