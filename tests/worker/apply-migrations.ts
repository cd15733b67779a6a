import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
// The domains' hooks, as the Worker's entry wires them (tests call the modules directly too).
import "~/wiring.server";

// Runs before each test file: that file's fresh D1 gets every migration.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
