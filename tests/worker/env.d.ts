declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** A Miniflare send_email binding that refuses every recipient but nobody@shortbeat.test (vitest.config.ts). */
    EMAIL_REFUSING: SendEmail;
  }
}
