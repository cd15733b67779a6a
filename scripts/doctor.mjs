#!/usr/bin/env node
// What is configured, from the command line: the same list as the admin's System status panel
// (/admin/system-status; docs/decisions/0312), from app/lib/outside-services.json.
//
//   npm run doctor                 this checkout: wrangler.toml (bindings, [vars]) and .dev.vars, plus the
//                                  local D1's service_status (last success, last error, quota pause)
//   npm run doctor -- --remote     the deployed Worker: wrangler.toml, the NAMES of its secrets
//                                  (`wrangler secret list`: Cloudflare never returns a secret's value), and
//                                  the remote D1's service_status (`wrangler d1 execute DB --remote`).
//                                  Needs `wrangler login`. It cannot see a binding's entitlement (for
//                                  instance whether the account is on Workers Paid): the last error says that.
//
// Values are never printed: only whether each setting is set, and what is wrong with it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const remote = process.argv.includes("--remote");
const catalog = JSON.parse(readFileSync(resolve(root, "app/lib/outside-services.json"), "utf8"));

/** wrangler.toml: the binding names declared, and the [vars] (top level only). */
function readWranglerToml() {
  const text = readFileSync(resolve(root, "wrangler.toml"), "utf8");
  const bindings = new Set();
  const vars = {};
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = /^\[\[?([^\]]+)\]\]?$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    const kv = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"?([^"]*)"?/.exec(line);
    if (!kv) continue;
    if (section === "vars") vars[kv[1]] = kv[2];
    if (kv[1] === "binding" || (kv[1] === "name" && section === "send_email")) bindings.add(kv[2]);
  }
  return { bindings, vars };
}

/** KEY=value lines of a .dev.vars file. */
function readDevVars() {
  const file = [".dev.vars", ".dev.vars.example"].map((f) => resolve(root, f)).find(existsSync);
  if (!file) return {};
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .map((l) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(l.trim()))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

function wrangler(args) {
  return execFileSync("npx", ["wrangler", ...args], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
}

/** The secret names of the deployed Worker (never values). */
function remoteSecretNames() {
  try {
    return new Set(JSON.parse(wrangler(["secret", "list", "--format", "json"])).map((s) => s.name));
  } catch (error) {
    console.error(
      `Could not list the Worker's secrets (wrangler login?): ${
        String(error.stderr || error.message)
          .trim()
          .split("\n")[0]
      }`,
    );
    return new Set();
  }
}

function statusRows() {
  try {
    const out = wrangler(["d1", "execute", "DB", remote ? "--remote" : "--local", "--json", "--command", "SELECT * FROM service_status"]);
    return JSON.parse(out)[0]?.results ?? [];
  } catch {
    return null;
  }
}

const { bindings, vars } = readWranglerToml();
const values = remote ? {} : readDevVars();
const secrets = remote ? remoteSecretNames() : new Set();
const rows = statusRows();

function state(setting) {
  if (setting.kind === "binding") return bindings.has(setting.name) ? { set: true } : { set: false };
  const value = values[setting.name] ?? vars[setting.name];
  if (value === undefined || value === "") return { set: secrets.has(setting.name), value: undefined };
  return { set: true, value };
}

let problems = 0;
console.log(
  `Shortbeat doctor — ${remote ? "the deployed Worker (wrangler.toml, secret names, remote D1)" : "this checkout (wrangler.toml, .dev.vars, local D1)"}\n`,
);
for (const service of catalog.services) {
  const lines = [];
  let missing = false;
  let warn = false;
  for (const setting of service.settings) {
    const { set, value } = state(setting);
    let note = set ? "set" : setting.required ? "MISSING" : "not set (optional)";
    if (!set && setting.required) missing = true;
    if (set && typeof value === "string") {
      const loopback = /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/.test(value);
      if (setting.https && !remote && loopback) note = "set (loopback: fine locally; production needs https://)";
      else if (setting.https && !value.startsWith("https://")) {
        note = "set, but must be an https:// URL";
        warn = true;
      } else if (value.startsWith("/dev/")) {
        note = remote || setting.unsetInProduction ? "points at the local stand-in (leave unset in production)" : "points at the local stand-in";
        if (remote) warn = true;
      }
    }
    lines.push(`    ${setting.name.padEnd(24)} ${note}`);
  }
  const row = rows?.find((r) => r.service === service.id);
  const verdict = missing ? "MISSING SETTINGS" : warn ? "CHECK SETTINGS" : "configured";
  if (missing || warn) problems++;
  console.log(`${service.label}: ${verdict}`);
  for (const l of lines) console.log(l);
  if (rows === null) console.log("    status: (service_status not readable: migrations applied?)");
  else {
    console.log(`    last success: ${row?.last_success_at ?? "never seen"}`);
    console.log(
      `    last error:   ${row?.last_error_at ? `${[row.last_error_code, row.last_error_message].filter(Boolean).join(": ")} (${row.last_error_at})` : "none"}`,
    );
    if (row?.paused_until && Date.parse(row.paused_until) > Date.now()) console.log(`    quota:        paused until ${row.paused_until}`);
    if (row?.alerted_code) console.log(`    alerted:      ${row.alerted_code} (admins told; see the audit log)`);
  }
  if (missing || warn) console.log(`    what to set:  ${service.fix}`);
  console.log("");
}
console.log(problems ? `${problems} service(s) need attention.` : "Every outside service is configured.");
