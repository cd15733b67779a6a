import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Runs before each test file: that file's fresh D1 gets every migration.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
