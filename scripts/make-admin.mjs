#!/usr/bin/env node
// Makes an existing account an admin, straight in D1 through wrangler: the way to get the first
// admin on a fresh deployment (after that, admins grant the role in /admin).
//
//   npm run admin:grant -- someone@example.com            # local D1 (.wrangler/state, or SB_STATE_DIR)
//   npm run admin:grant -- someone@example.com --remote   # the deployed D1 (needs `wrangler login`)
//
// The person signs up first (and confirms their e-mail); this grants the role, ends their
// sessions (a role change always does) and writes a critical audit record.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const remote = args.includes("--remote");
const emailArg = args.find((a) => !a.startsWith("--"));

function usage(message) {
  if (message) console.error(`Error: ${message}\n`);
  console.error("Usage: npm run admin:grant -- <email> [--local|--remote]");
  process.exit(1);
}

if (!emailArg) usage("an e-mail address is required.");
const email = emailArg.trim().toLowerCase();
// The app's rule (one @, dotted domain, at most 254 characters), and nothing that could end a
// SQL string or statement: the address is validated before it is ever put into SQL.
const EMAIL = /^[a-z0-9.!#$%&*+/=?^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/;
if (email.length > 254 || !EMAIL.test(email)) usage(`"${emailArg}" is not a valid e-mail address.`);
/** SQL string literal; the validation above already excludes quotes, this is belt and braces. */
const sql = (value) => `'${String(value).replaceAll("'", "''")}'`;

function wrangler(command, { json = false } = {}) {
  const argv = ["d1", "execute", "DB", remote ? "--remote" : "--local", "--command", command];
  if (json) argv.push("--json");
  if (!remote && process.env.SB_STATE_DIR) argv.push("--persist-to", resolve(root, process.env.SB_STATE_DIR));
  if (!remote) argv.push("--yes");
  const result = spawnSync(process.execPath, [join(root, "node_modules/.bin/wrangler"), ...argv], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...(remote ? {} : { CI: "true" }) },
    stdio: ["inherit", "pipe", "pipe"],
  });
  if (result.status !== 0) {
    process.stderr.write(result.stderr || result.stdout || "");
    throw new Error(`wrangler d1 execute failed (exit ${result.status})`);
  }
  return result.stdout;
}

function rowsOf(output) {
  const start = output.indexOf("[");
  const parsed = JSON.parse(output.slice(start));
  return parsed.flatMap((r) => r.results ?? []);
}

const where = remote ? "remote D1" : `local D1${process.env.SB_STATE_DIR ? ` (${process.env.SB_STATE_DIR})` : ""}`;
const found = rowsOf(
  wrangler(
    `SELECT u.id, EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS is_admin FROM users u WHERE u.email = ${sql(email)}`,
    { json: true },
  ),
);
if (found.length === 0) {
  console.error(`No account uses ${email} in the ${where}. Sign up first, then run this again.`);
  process.exit(1);
}
const { id, is_admin: isAdmin } = found[0];
if (isAdmin) {
  console.log(`${email} is already an admin (${where}).`);
  process.exit(0);
}
const details = JSON.stringify({ timestamp: new Date().toISOString(), via: "npm run admin:grant", email });
wrangler(
  [
    `INSERT OR IGNORE INTO user_roles (id, user_id, role) VALUES (${sql(randomUUID())}, ${sql(id)}, 'admin')`,
    `DELETE FROM sessions WHERE user_id = ${sql(id)}`,
    `INSERT INTO security_audit_log (id, event_type, severity, user_id, target_user_id, details) VALUES (${sql(randomUUID())}, 'admin_role_granted_cli', 'critical', NULL, ${sql(id)}, ${sql(details)})`,
  ].join("; "),
);
console.log(`${email} is now an admin (${where}). They sign in again to use the admin console.`);
