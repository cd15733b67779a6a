// Every route of spec section 2, as a page and as its .data request, times every kind of user.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_KINDS, createUser, signInAs, type TestUser, type UserKind } from "../../factories/users";
import { fetchApp, outcome, withCookie, signedCookiePayload } from "../helpers";
import { ALLOWED, GUARDS, type Guard, KINDS, type Kind } from "./actions";

const OK = "200";
const AUTH = "→/auth";
const PENDING = "→/pending-approval";
const DASH = "→/dashboard";
const NO_AGENCY = "→/agency-application-signup";

// Expected outcome per kind, for each kind of guard: the guards' own table (./actions.ts), where
// reaching the page is a 200.
const page = (guard: Guard): Record<Kind, string> =>
  Object.fromEntries(KINDS.map((k) => [k, GUARDS[guard][k] === ALLOWED ? OK : GUARDS[guard][k]])) as Record<Kind, string>;
const APPROVED = page("approved");
const SIGNED_IN = page("signed-in");
const PARTNER = page("partner");
const ADMIN = page("admin");
const AGENCY = page("agency");
const PUBLIC = page("public");
// biome-ignore format: a table of the 9 kinds
const AUTH_PAGE: Record<Kind, string> = {
  anonymous: OK, pending: DASH, rejected: DASH, banned: OK,
  creator: DASH, clipper: DASH, partner: DASH, agency: DASH, admin: DASH,
};
// biome-ignore format: a table of the 9 kinds
const PENDING_PAGE: Record<Kind, string> = {
  anonymous: AUTH, pending: OK, rejected: OK, banned: AUTH,
  creator: DASH, clipper: DASH, partner: DASH, agency: DASH, admin: DASH,
};

// biome-ignore format: a table of the 9 kinds
const SIGNUP_PAGE: Record<Kind, string> = {
  anonymous: OK, pending: OK, rejected: OK, banned: OK,
  creator: OK, clipper: OK, partner: OK, agency: "→/agency-dashboard", admin: OK,
};
// biome-ignore format: a table of the 9 kinds
const AGENCY_STATUS: Record<Kind, string> = {
  anonymous: AUTH, pending: NO_AGENCY, rejected: NO_AGENCY, banned: AUTH,
  creator: NO_AGENCY, clipper: NO_AGENCY, partner: NO_AGENCY, agency: "→/agency-dashboard", admin: NO_AGENCY,
};
const NOT_FOUND: Record<Kind, string> = Object.fromEntries(KINDS.map((k) => [k, "404"])) as Record<Kind, string>;

const MATRIX: [string, Record<Kind, string>][] = [
  ["/agency/signup", SIGNUP_PAGE],
  ["/agency-application-signup", SIGNUP_PAGE],
  ["/agency-application-status", AGENCY_STATUS],
  ["/agency-invitation", SIGNED_IN],
  ["/music-signup", PUBLIC],
  ["/matrix-agency/music-signup", PUBLIC],
  ["/matrix-agency/signup", AUTH_PAGE],
  ["/no-such-agency/signup", NOT_FOUND],
  ["/campaigns/any-campaign", NOT_FOUND],
  ["/admin/audit-log", ADMIN],
  ["/admin/settings", ADMIN],
  ["/admin/system-status", ADMIN],
  ["/admin/agencies", ADMIN],
  ["/admin/verifications", ADMIN],
  ["/admin/music", ADMIN],
  ["/admin/broadcast", ADMIN],
  ["/admin/payments", ADMIN],
  ["/admin/campaigns", ADMIN],
  ["/", PUBLIC],
  ["/terms-of-service", PUBLIC],
  ["/privacy-policy", PUBLIC],
  ["/music-partner-terms", PUBLIC],
  ["/auth", AUTH_PAGE],
  ["/pending-approval", PENDING_PAGE],
  ["/auth/finish-sign-up", page("unfinished-sign-up")],
  ["/dashboard", APPROVED],
  ["/music", APPROVED],
  ["/music/submit", PARTNER],
  ["/music/submissions", PARTNER],
  ["/music/licences", APPROVED],
  // The public licence verification page: no sign-in; an unknown code is the not-found page for everyone.
  ["/licences/SB-0000-0000-0000", NOT_FOUND],
  ["/campaigns", APPROVED],
  ["/channels", APPROVED],
  ["/analytics", APPROVED],
  ["/referrals", APPROVED],
  ["/clipping", APPROVED],
  ["/community-chat", APPROVED],
  ["/payments", APPROVED],
  ["/settings", SIGNED_IN],
  ["/profile", SIGNED_IN],
  ["/agency-dashboard", AGENCY],
  ["/admin", ADMIN],
  ["/chat-management", ADMIN],
  ["/user-retention", ADMIN],
  ["/ai-thumbnail-editor", ADMIN],
];

const users = {} as Record<UserKind, TestUser>;

beforeAll(async () => {
  for (const kind of ALL_KINDS) users[kind] = await createUser(kind);
  // An approved, active agency (owned by someone outside the matrix) whose sign-up pages resolve.
  const owner = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, email) VALUES (?, 'matrix-owner@example.com')").bind(owner),
    env.DB.prepare(
      "INSERT INTO agencies (id, name, slug, contact_email, status, approval_status, user_id) VALUES (?, 'Matrix Agency', 'matrix-agency', 'm@example.com', 'active', 'approved', ?)",
    ).bind(crypto.randomUUID(), owner),
  ]);
});

/** A cookie for the kind; banned users get a fresh session each time (the guard ends it). */
async function cookieFor(kind: Kind): Promise<string | null> {
  if (kind === "anonymous") return null;
  if (kind === "banned") return (await signInAs(users.banned.id)).cookie;
  return users[kind].cookie;
}

describe.each(MATRIX)("%s", (path, expected) => {
  it.each(KINDS)("as %s (page and .data)", async (kind) => {
    const page = await fetchApp(path, withCookie(await cookieFor(kind)));
    expect(await outcome(page), `${path} page as ${kind}`).toBe(expected[kind]);
    const dataPath = path === "/" ? "/_.data" : `${path}.data`;
    const res = await fetchApp(dataPath, withCookie(await cookieFor(kind)));
    const got = await outcome(res);
    // A .data request that is allowed answers 200 with the route data.
    expect(got, `${dataPath} as ${kind}`).toBe(expected[kind]);
  });
});

describe("the guards hold for a .data request that asks for one route's loader alone", () => {
  it.each([
    ["/admin", "routes/admin/users", "creator", DASH],
    ["/channels", "routes/_app/channels", "pending", PENDING],
    ["/settings", "routes/_app/settings", "anonymous", AUTH],
    ["/music/submit", "routes/_app/music-submit", "creator", DASH],
  ] as const)("%s with _routes=%s as %s", async (path, routeId, kind, expected) => {
    const res = await fetchApp(`${path}.data?_routes=${routeId}`, withCookie(await cookieFor(kind)));
    expect(await outcome(res)).toBe(expected);
  });
});

describe("unauthorized access attempts", () => {
  it("writes the high-severity audit record when a non-approved user visits a guarded path", async () => {
    await fetchApp("/payments", withCookie(users.pending.cookie));
    const row = await env.DB.prepare(
      "SELECT severity, details, path FROM security_audit_log WHERE event_type = 'unauthorized_access_attempt' AND user_id = ? AND path = '/payments'",
    )
      .bind(users.pending.id)
      .first<{ severity: string; details: string; path: string }>();
    expect(row?.severity).toBe("high");
    const details = JSON.parse(row!.details);
    expect(details).toMatchObject({ path: "/payments", user_id: users.pending.id, approval_status: "pending" });
    expect(details.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("does not write it for paths outside the spec's list", async () => {
    await fetchApp("/dashboard", withCookie(users.rejected.cookie));
    const n = await env.DB.prepare(
      "SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'unauthorized_access_attempt' AND user_id = ? AND path = '/dashboard'",
    )
      .bind(users.rejected.id)
      .first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("tells anonymous visitors of admin pages 'Authentication Required' and others 'Access Denied'", async () => {
    const anon = await fetchApp("/admin");
    expect(anon.headers.get("Set-Cookie")).toBeTruthy();
    const toast = anon.headers.getSetCookie().find((c) => c.startsWith("__Host-sb_toast="))!;
    const decoded = atob(signedCookiePayload(toast));
    expect(decoded).toContain("Authentication Required");
    expect(decoded).toContain("Please sign in to access this area.");
    const creator = await fetchApp("/admin", withCookie(users.creator.cookie));
    const toast2 = creator.headers.getSetCookie().find((c) => c.startsWith("__Host-sb_toast="))!;
    const decoded2 = atob(signedCookiePayload(toast2));
    expect(decoded2).toContain("Access Denied");
    expect(decoded2).toContain("Admin privileges required to access this area.");
  });
});
