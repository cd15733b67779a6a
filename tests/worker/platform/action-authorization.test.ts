// Every route action, each of its intents with a valid form body, times the 9 kinds of user
// (issue 10, item 2): the status or redirect each kind gets, and for every refused kind that
// nothing in D1 changed. The loader side is authorization-matrix.test.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "~/platform/crypto.server";
import { createUser, signInAs } from "../../factories/users";
import {
  ACTIONS,
  ADMIN_REFUSAL_TOAST,
  ALLOWED,
  actionOutcome,
  DEV_TOOL,
  GUARDS,
  KINDS,
  PUBLIC_ANSWERS,
  REFUSAL_AUDIT_EVENTS,
  cookieFor,
  worldReady,
  formBodyOf,
  labelOf,
  post,
  toastTitle,
  type ActionCase,
  type Variant,
  type World,
} from "./actions";
import { auditMark, auditRowsSince, fingerprint } from "./db-fingerprint";
import { present } from "../../helpers/present";

let world: World;
let n = 0;

beforeAll(async () => {
  world = await worldReady();
}, 180_000);

/** Pages are posted as documents and as the `.data` request a page with JavaScript sends. */
const variantsOf = (c: ActionCase): Variant[] => (c.resource ? ["page"] : ["page", "data"]);

/** The banned user's sessions end, and so does the record of why (the guard's own doing, not the action's). */
const endBannedSessions = () =>
  env.DB.batch([
    env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(world.users.banned.id),
    env.DB.prepare("DELETE FROM ended_sessions WHERE user_id = ?").bind(world.users.banned.id),
  ]);

const CASES = ACTIONS.filter((c) => !DEV_TOOL(c));

describe.each(CASES.map((c) => [labelOf(c), c] as const))("%s", (label, c) => {
  const expected = GUARDS[c.guard];
  const refusals = new Set(Object.values(expected).filter((v) => v !== ALLOWED));
  // Refused kinds are tried both ways; allowed ones once (what they then do is the domain tests' part).
  const rows = KINDS.flatMap((kind) =>
    (expected[kind] === ALLOWED ? variantsOf(c).slice(0, 1) : variantsOf(c)).map((variant) => [kind, variant, expected[kind]] as const),
  );

  it.each(rows)("as %s (%s): %s", async (kind, variant, want) => {
    n += 1;
    // A banned user signs in afresh for each request (the guard ends every session it has).
    if (kind === "banned") await endBannedSessions();
    const before = await fingerprint();
    const mark = await auditMark();
    const cookie = await cookieFor(world, kind, c.fresh);
    const body = c.raw ? c.raw.body : formBodyOf(c.body({ world, kind, n }));
    const res = await post(c.path, variant, cookie, body, c.raw?.contentType);
    const got = await actionOutcome(res);
    const what = `${label} ${variant} as ${kind}`;

    if (want === ALLOWED) {
      // Allowed: the guard let the request through (the domain tests check what it did).
      expect(res.status, `${what}: ${got}`).toBeLessThan(500);
      expect(refusals.has(got), `${what} was refused: ${got}`).toBe(false);
      if (c.guard === "public" && kind === "anonymous") {
        const answer = PUBLIC_ANSWERS[`${c.path} ${c.intent}`];
        expect(answer, `${what}: PUBLIC_ANSWERS has no entry`).toBeDefined();
        expect((await actionOutcome(res, { query: true })).startsWith(present(answer, `${what}: PUBLIC_ANSWERS' entry`)), `${what}: ${got}`).toBe(true);
      }
      return;
    }

    expect(got, what).toBe(want);
    if (kind === "banned") {
      if (c.guard !== "api" && c.guard !== "api-approved" && c.guard !== "api-admin" && c.guard !== "not-found") {
        // The guard signs a banned user out everywhere.
        const left = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(world.users.banned.id).first<{ n: number }>();
        expect(left?.n, `${what}: sessions left`).toBe(0);
      }
      await endBannedSessions();
    }
    expect(await fingerprint(), `${what}: nothing changed`).toEqual(before);
    const events = await auditRowsSince(mark);
    expect(
      events.filter((e) => !REFUSAL_AUDIT_EVENTS.has(e)),
      `${what}: audit rows`,
    ).toEqual([]);
    if (c.guard === "admin") {
      expect(toastTitle(res), `${what}: toast`).toBe(ADMIN_REFUSAL_TOAST[kind]);
      if (kind !== "anonymous" && kind !== "banned") expect(events, `${what}: audit rows`).toContain("admin_access_denied");
    }
  });
});

describe("membership: a manager of another agency", () => {
  it.each([
    "update_profile",
    "create_token",
    "add_manager",
    "upload_logo",
  ] as const)("is refused %s on an agency that is not theirs, and nothing changes", async (intent) => {
    const other = await createUser("agency");
    const c = ACTIONS.find((a) => a.path === "/agency-dashboard" && a.intent === intent)!;
    n += 1;
    const before = await fingerprint();
    const mark = await auditMark();
    const res = await post(c.path, "page", other.cookie, formBodyOf(c.body({ world, kind: "agency", n })));
    expect(res.status).toBe(403);
    expect(await fingerprint()).toEqual(before);
    expect(await auditRowsSince(mark)).toEqual(["agency_access_denied"]);
  });
});

describe("the fingerprint", () => {
  it("sees a changed row, a new row and a deleted row, and not a session's sliding expiry", async () => {
    const base = await fingerprint();
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE user_id = ?")
      .bind(new Date().toISOString(), new Date(Date.now() + 3_600_000).toISOString(), world.users.creator.id)
      .run();
    expect(await fingerprint()).toEqual(base);
    await env.DB.prepare("UPDATE profiles SET full_name = full_name || '!' WHERE user_id = ?").bind(world.users.creator.id).run();
    const changed = await fingerprint();
    const profilesBefore = present(base.profiles, "profiles in the first fingerprint");
    const profilesAfter = present(changed.profiles, "profiles in the second fingerprint");
    expect(profilesAfter.hash).not.toBe(profilesBefore.hash);
    expect(profilesAfter.rows).toBe(profilesBefore.rows);
    const { token } = await signInAs(world.users.creator.id);
    expect((await fingerprint()).sessions?.rows).toBe(present(base.sessions, "sessions in the first fingerprint").rows + 1);
    await env.DB.prepare("DELETE FROM sessions WHERE id = ?").bind(sha256Hex(token)).run();
    await env.DB.prepare("UPDATE profiles SET full_name = substr(full_name, 1, length(full_name) - 1) WHERE user_id = ?").bind(world.users.creator.id).run();
    expect(await fingerprint()).toEqual(base);
  });
});

describe("the inventory", () => {
  it("covers every route module that exports an action", () => {
    const routes = import.meta.glob<Record<string, unknown>>("../../../app/routes/**/*.{ts,tsx}", { eager: true });
    const withAction = Object.entries(routes)
      .filter(([, mod]) => typeof mod.action === "function")
      .map(([file]) => file.replace(/^.*app\/routes\//, ""));
    // The stand-in Google token/revoke API, the stand-in Stripe API and the stand-in SMS provider's
    // Messages API (issue 28): a provider's endpoints, not forms of ours.
    const exempt = new Set(["dev/oauth.ts", "dev/stripe-api.ts", "dev/sms.ts"]);
    const covered = new Set(ACTIONS.map((a) => a.module));
    expect(withAction.filter((m) => !exempt.has(m) && !covered.has(m))).toEqual([]);
    expect([...covered].filter((m) => !withAction.includes(m))).toEqual([]);
  });
});
