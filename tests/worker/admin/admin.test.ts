import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USER_ACTIONS, type UserAction } from "~/modules/admin/schema";
import { actorFor } from "../../factories/actors";
import { ALL_KINDS, createUser, signInAs, type TestUser, type UserKind, userBeforeAll } from "../../factories/users";
import { count, get, one, post, redirectOf, signUpFields } from "../admin-agency-helpers";

const fieldsFor = (intent: UserAction, userId: string): Record<string, string> => ({
  intent,
  userId,
  confirm: "yes",
  ...(intent === "reject" || intent === "ban" || intent === "unban" ? { reason: "Testing the admin console" } : {}),
});

async function auditCount(eventType: string, targetUserId: string) {
  return count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = ? AND target_user_id = ?", eventType, targetUserId);
}

async function sessionsOf(userId: string) {
  return count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", userId);
}

async function notificationsOf(userId: string) {
  return count("SELECT count(*) AS n FROM user_notifications WHERE user_id = ?", userId);
}

describe("admin user actions, performed by an admin", () => {
  const admin = userBeforeAll("admin");

  it("approves a pending user: status, e-mail, notification, audit row", async () => {
    const target = await createUser("pending");
    const res = await post(`/admin?user=${target.id}&confirm=approve`, fieldsFor("approve", target.id), admin.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin?user=${target.id}`);
    expect((await one("SELECT approval_status FROM profiles WHERE user_id = ?", target.id))?.approval_status).toBe("approved");
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'account_approved'", target.email)).toBe(1);
    expect(await notificationsOf(target.id)).toBe(1);
    const row = await one<{ user_id: string; severity: string }>(
      "SELECT user_id, severity FROM security_audit_log WHERE event_type = 'user_approved' AND target_user_id = ?",
      target.id,
    );
    expect(row).toEqual({ user_id: admin.id, severity: "medium" });
  });

  it("rejects with a reason the user is told", async () => {
    const target = await createUser("pending");
    const res = await post("/admin", fieldsFor("reject", target.id), admin.cookie);
    expect(res.status).toBe(302);
    const profile = await one("SELECT approval_status, rejection_reason FROM profiles WHERE user_id = ?", target.id);
    expect(profile).toEqual({ approval_status: "rejected", rejection_reason: "Testing the admin console" });
    expect(await auditCount("user_rejected", target.id)).toBe(1);
    const note = await one<{ content: string }>(
      "SELECT n.content FROM notifications n JOIN user_notifications un ON un.notification_id = n.id WHERE un.user_id = ?",
      target.id,
    );
    expect(note?.content).toContain("Testing the admin console");
  });

  it("needs a reason to reject, ban or unban, and changes nothing without one", async () => {
    const target = await createUser("pending");
    for (const intent of ["reject", "ban"] as const) {
      const res = await post("/admin", { intent, userId: target.id, confirm: "yes", reason: "  " }, admin.cookie);
      expect(res.status).toBe(400);
    }
    expect(await one("SELECT approval_status, is_banned FROM profiles WHERE user_id = ?", target.id)).toEqual({
      approval_status: "pending",
      is_banned: 0,
    });
  });

  it("needs the confirm step: a post without it changes nothing", async () => {
    const target = await createUser("pending");
    const res = await post("/admin", { intent: "approve", userId: target.id }, admin.cookie);
    expect(res.status).toBe(400);
    expect((await one("SELECT approval_status FROM profiles WHERE user_id = ?", target.id))?.approval_status).toBe("pending");
  });

  it("bans with a reason, ending every session; unbans with a reason", async () => {
    const target = await createUser("creator");
    await signInAs(target.id);
    expect(await sessionsOf(target.id)).toBe(2);
    const res = await post("/admin", fieldsFor("ban", target.id), admin.cookie);
    expect(res.status).toBe(302);
    expect(await one("SELECT is_banned, ban_reason FROM profiles WHERE user_id = ?", target.id)).toEqual({
      is_banned: 1,
      ban_reason: "Testing the admin console",
    });
    expect(await sessionsOf(target.id)).toBe(0);
    expect(await one("SELECT severity FROM security_audit_log WHERE event_type = 'user_banned' AND target_user_id = ?", target.id)).toEqual({
      severity: "high",
    });
    // The old cookie no longer opens anything.
    expect(await redirectOf(await get("/dashboard", target.cookie))).toMatch(/^\/auth/);

    const unban = await post("/admin", fieldsFor("unban", target.id), admin.cookie);
    expect(unban.status).toBe(302);
    expect(await one("SELECT is_banned, ban_reason FROM profiles WHERE user_id = ?", target.id)).toEqual({
      is_banned: 0,
      ban_reason: null,
    });
    expect(await auditCount("user_unbanned", target.id)).toBe(1);
    expect(await notificationsOf(target.id)).toBeGreaterThanOrEqual(2);
  });

  it("toggles music partner on and off", async () => {
    const target = await createUser("creator");
    await post("/admin", fieldsFor("toggle_music_partner", target.id), admin.cookie);
    expect((await one("SELECT is_music_partner FROM profiles WHERE user_id = ?", target.id))?.is_music_partner).toBe(1);
    await post("/admin", fieldsFor("toggle_music_partner", target.id), admin.cookie);
    expect((await one("SELECT is_music_partner FROM profiles WHERE user_id = ?", target.id))?.is_music_partner).toBe(0);
    expect(await auditCount("music_partner_granted", target.id)).toBe(1);
    expect(await auditCount("music_partner_revoked", target.id)).toBe(1);
  });

  it("grants and revokes admin; each role change ends the user's sessions", async () => {
    const target = await createUser("creator");
    const grant = await post("/admin", fieldsFor("grant_admin", target.id), admin.cookie);
    expect(grant.status).toBe(302);
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ? AND role = 'admin'", target.id)).toBe(1);
    expect(await sessionsOf(target.id)).toBe(0);
    expect(await auditCount("admin_role_granted", target.id)).toBe(1);

    const fresh = await signInAs(target.id);
    expect((await get("/admin", fresh.cookie)).status).toBe(200);
    const revoke = await post("/admin", fieldsFor("revoke_admin", target.id), admin.cookie);
    expect(revoke.status).toBe(302);
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", target.id)).toBe(0);
    expect(await sessionsOf(target.id)).toBe(0);
    expect(await auditCount("admin_role_revoked", target.id)).toBe(1);
  });

  it("ends all of a user's sessions", async () => {
    const target = await createUser("creator");
    await signInAs(target.id);
    const res = await post("/admin", fieldsFor("end_sessions", target.id), admin.cookie);
    expect(res.status).toBe(302);
    expect(await sessionsOf(target.id)).toBe(0);
    expect(await auditCount("sessions_ended_by_admin", target.id)).toBe(1);
  });

  it("answers 404 for an unknown user", async () => {
    const res = await post("/admin", fieldsFor("approve", crypto.randomUUID()), admin.cookie);
    expect(res.status).toBe(404);
  });
});

describe("admin refusals", () => {
  it("an admin cannot ban themself or remove their own admin role", async () => {
    const admin = await createUser("admin");
    const ban = await post("/admin.data", fieldsFor("ban", admin.id), admin.cookie);
    expect(ban.status).toBe(400);
    expect(await ban.text()).toContain("You cannot ban yourself.");
    const demote = await post("/admin", fieldsFor("revoke_admin", admin.id), admin.cookie);
    expect(demote.status).toBe(400);
    expect(await one("SELECT is_banned FROM profiles WHERE user_id = ?", admin.id)).toEqual({ is_banned: 0 });
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", admin.id)).toBe(1);
  });

  it("never removes the last admin, even when the acting admin lost the role meanwhile", async () => {
    const { revokeAdmin, banUser } = await import("~/modules/accounts/accounts.server");
    // Start from a database whose only admins are these two.
    await env.DB.prepare("DELETE FROM user_roles").run();
    const a = await createUser("admin");
    const b = await createUser("admin");
    // A race: another tab removed A's role a moment ago; A's stale request still arrives.
    await env.DB.prepare("DELETE FROM user_roles WHERE user_id = ?").bind(a.id).run();
    const request = new Request("https://shortbeat.test/admin", { method: "POST" });
    // The actor A's guard proved before the role went: still an admin as far as the request knows.
    const staleA = actorFor(a, { isAdmin: true });
    const refused = { code: "conflict", status: 409, message: "You cannot remove the last admin." };
    await expect(revokeAdmin(staleA, b.id, request)).rejects.toMatchObject(refused);
    await expect(banUser(staleA, b.id, "stale", request)).rejects.toMatchObject(refused);
    // Nothing of either batch was written: B keeps the role, sessions, and no audit row claims otherwise.
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", b.id)).toBe(1);
    expect(await one("SELECT is_banned FROM profiles WHERE user_id = ?", b.id)).toEqual({ is_banned: 0 });
    expect(await sessionsOf(b.id)).toBe(1);
    expect(await auditCount("admin_role_revoked", b.id)).toBe(0);
    expect(await auditCount("user_banned", b.id)).toBe(0);
  });

  it("with two admins, one can demote the other, but not the reverse afterwards", async () => {
    const a = await createUser("admin");
    const b = await createUser("admin");
    expect((await post("/admin", fieldsFor("revoke_admin", b.id), a.cookie)).status).toBe(302);
    // B's sessions ended with the role change; a new session of B is no admin any more.
    const bAgain = await signInAs(b.id);
    const back = await post("/admin", fieldsFor("revoke_admin", a.id), bAgain.cookie);
    expect(await redirectOf(back)).toBe("/dashboard");
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", a.id)).toBe(1);
  });
});

describe("every admin action is refused for everyone else", () => {
  const others: (UserKind | "anonymous")[] = ["anonymous", ...ALL_KINDS.filter((k) => k !== "admin")];
  let target: TestUser;
  beforeAll(async () => {
    target = await createUser("pending");
  });

  it.each(others)("%s: pages redirect away, every action changes nothing", async (kind) => {
    const actor = kind === "anonymous" ? null : await createUser(kind);
    const cookie = actor?.cookie;
    const expected = kind === "anonymous" || kind === "banned" ? /^\/auth/ : /^\/dashboard$/;
    for (const path of ["/admin", "/admin/audit-log", "/admin/settings", "/admin/agencies", "/admin.data", "/admin/audit-log.data"]) {
      const res = await get(path, cookie);
      expect([202, 204, 302], `${kind} GET ${path}`).toContain(res.status);
      expect(await redirectOf(res), `${kind} GET ${path}`).toMatch(expected);
    }
    for (const intent of USER_ACTIONS) {
      for (const path of ["/admin", "/admin.data"]) {
        const res = await post(path, fieldsFor(intent, target.id), cookie);
        expect(await redirectOf(res), `${kind} ${intent} ${path}`).toMatch(expected);
      }
    }
    const settings = await post(
      "/admin/settings",
      {
        creatorSharePercent: "99",
        payoutDayOfMonth: "1",
        signupLimitPerHour: "1",
        genericLimitPer15Min: "1",
        suspiciousLimitPer15Min: "1",
      },
      cookie,
    );
    expect(await redirectOf(settings)).toMatch(expected);
    expect(await count("SELECT count(*) AS n FROM app_settings")).toBe(0);
    const t = await one("SELECT p.approval_status, p.is_banned, p.is_music_partner FROM profiles p WHERE user_id = ?", target.id);
    expect(t).toEqual({ approval_status: "pending", is_banned: 0, is_music_partner: 0 });
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", target.id)).toBe(0);
    expect(await sessionsOf(target.id)).toBe(1);
  });
});

describe("users list, details and audit log", () => {
  const admin = userBeforeAll("admin");

  it("searches by name or e-mail, filters by status and paginates on the server", async () => {
    const tag = `zed${Date.now()}`;
    for (let i = 0; i < 23; i++) await createUser("pending", { email: `${tag}-${i}@example.com` });
    await createUser("creator", { fullName: `Zelda ${tag}` });
    const page1 = await (await get(`/admin?q=${tag}&status=pending`, admin.cookie)).text();
    expect(page1).toContain("Page 1 of 2");
    expect(page1).toContain("23 users");
    expect(page1).not.toContain(`Zelda ${tag}`);
    const page2 = await (await get(`/admin?q=${tag}&status=pending&page=2`, admin.cookie)).text();
    expect(page2).toContain("Page 2 of 2");
    const byName = await (await get(`/admin?q=zelda%20${tag}`, admin.cookie)).text();
    expect(byName).toContain(`Zelda ${tag}`);
    expect(byName).toContain("1 user");
  });

  it("shows a user's sign-up details", async () => {
    const email = `details-${Date.now()}@example.com`;
    const signup = await post("/auth", signUpFields(email, { referralCode: "", wantsToBeClipper: "on", acceptClipperAgreement: "on" }));
    expect([200, 302, 303]).toContain(signup.status);
    const user = await one<{ id: string }>("SELECT id FROM users WHERE email = ?", email);
    expect(user).not.toBeNull();
    const html = await (await get(`/admin?user=${user!.id}`, admin.cookie)).text();
    expect(html).toContain("Sign-up details");
    expect(html).toContain("https://www.youtube.com/@samsignup");
    expect(html).toContain("1,200");
    expect(html).toContain("34,000");
    expect(html).toMatch(/Wants to be a clipper<\/dt><dd[^>]*>Yes/);
    expect(html).toMatch(/YouTube channel IDs<\/dt><dd[^>]*>None linked/);
  });

  it("shows the YouTube channel ids a revenue import names a person by (issue 29)", async () => {
    const target = await createUser("creator");
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, 'UCpanelChannelId000001', 'Panel Shorts')")
      .bind(crypto.randomUUID(), target.id)
      .run();
    const html = await (await get(`/admin?user=${target.id}`, admin.cookie)).text();
    expect(html).toContain("UCpanelChannelId000001");
    expect(html).toContain("Panel Shorts");
  });

  it("renders the confirm step as a page state that works without JavaScript", async () => {
    const target = await createUser("creator");
    const html = await (await get(`/admin?user=${target.id}&confirm=ban`, admin.cookie)).text();
    expect(html).toMatch(/<dialog open=""[^>]*aria-labelledby="/);
    expect(html).toContain('name="reason"');
    expect(html).toContain('name="confirm" value="yes"');
    expect(html).toContain("Confirm ban");
  });

  it("lists the ban in the audit log, filtered by type, severity, user and date", async () => {
    const target = await createUser("creator", { email: `audited-${Date.now()}@example.com` });
    await post("/admin", fieldsFor("ban", target.id), admin.cookie);
    const today = new Date().toISOString().slice(0, 10);
    const html = await (
      await get(`/admin/audit-log?type=user_banned&severity=high&user=${encodeURIComponent(target.email)}&from=${today}&to=${today}`, admin.cookie)
    ).text();
    expect(html).toContain("user_banned");
    expect(html).toContain(target.email);
    expect(html).toContain("1 event");
    const none = await (await get(`/admin/audit-log?type=user_banned&severity=low&user=${encodeURIComponent(target.email)}`, admin.cookie)).text();
    expect(none).toContain("No events match these filters.");
    const before = await (await get(`/admin/audit-log?type=user_banned&to=2000-01-01`, admin.cookie)).text();
    expect(before).toContain("No events match these filters.");
  });

  it("offers no way to change the audit log", async () => {
    const rows = await count("SELECT count(*) AS n FROM security_audit_log");
    const res = await post("/admin/audit-log", { id: "x" }, admin.cookie);
    expect(res.status).toBe(405);
    expect(await count("SELECT count(*) AS n FROM security_audit_log")).toBeGreaterThanOrEqual(rows);
  });
});

describe("app settings", () => {
  const admin = userBeforeAll("admin");
  const defaults = {
    creatorSharePercent: "70",
    payoutDayOfMonth: "18",
    signupLimitPerHour: "15",
    genericLimitPer15Min: "5",
    suspiciousLimitPer15Min: "10",
  };
  afterAll(async () => {
    await post("/admin/settings", defaults, admin.cookie);
  });

  it("shows the defaults of the spec", async () => {
    const html = await (await get("/admin/settings", admin.cookie)).text();
    expect(html).toMatch(/name="creatorSharePercent"[^>]*value="70"/);
    expect(html).toMatch(/name="payoutDayOfMonth"[^>]*value="18"/);
    expect(html).toMatch(/name="signupLimitPerHour"[^>]*value="15"/);
  });

  it("validates and changes nothing on bad input", async () => {
    const res = await post("/admin/settings", { ...defaults, creatorSharePercent: "150", payoutDayOfMonth: "31" }, admin.cookie);
    expect(res.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM app_settings")).toBe(0);
  });

  it("stores a change with an audit row, and the sign-up limit in force follows it", async () => {
    const res = await post("/admin/settings", { ...defaults, creatorSharePercent: "75", signupLimitPerHour: "2" }, admin.cookie);
    expect(res.status).toBe(302);
    expect(await one("SELECT value, updated_by FROM app_settings WHERE key = 'creator_share_percent'")).toEqual({
      value: "75",
      updated_by: admin.id,
    });
    const audit = await one<{ details: string }>("SELECT details FROM security_audit_log WHERE event_type = 'settings_updated'");
    expect(JSON.parse(audit!.details)).toMatchObject({
      creator_share_percent: { from: 70, to: 75 },
      signup_limit_per_hour: { from: 15, to: 2 },
    });

    const ip = "203.0.113.77";
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await post("/auth", signUpFields(`limit-${i}-${Date.now()}@example.com`), undefined, { "CF-Connecting-IP": ip });
      statuses.push(r.status);
    }
    expect(statuses[0]).not.toBe(429);
    expect(statuses[1]).not.toBe(429);
    expect(statuses[2]).toBe(429);
  });
});

describe("/admin-recovery", () => {
  const SECRET = "test-admin-recovery-secret";
  const answer = "If the recovery secret and the e-mail address are both correct, that account now has admin access.";

  it("with the right secret and an existing account grants admin, ends sessions and logs a critical event", async () => {
    const user = await createUser("creator");
    const res = await post("/admin-recovery", { email: user.email, secret: SECRET });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(answer);
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ? AND role = 'admin'", user.id)).toBe(1);
    expect(await sessionsOf(user.id)).toBe(0);
    expect(await one("SELECT severity FROM security_audit_log WHERE event_type = 'admin_recovery_granted' AND target_user_id = ?", user.id)).toEqual({
      severity: "critical",
    });
  });

  it("refuses a wrong secret with the very same answer, and logs it as critical", async () => {
    const user = await createUser("creator");
    const res = await post("/admin-recovery", { email: user.email, secret: "not-the-secret-at-all" });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(answer);
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", user.id)).toBe(0);
    expect(await sessionsOf(user.id)).toBe(1);
    const row = await one<{ severity: string; details: string }>(
      "SELECT severity, details FROM security_audit_log WHERE event_type = 'admin_recovery_failed' AND target_user_id = ?",
      user.id,
    );
    expect(row?.severity).toBe("critical");
    expect(row?.details).not.toContain("not-the-secret-at-all");
    const unknown = await post("/admin-recovery", { email: "nobody-here@example.com", secret: SECRET });
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain(answer);
  });

  it("is rate-limited per address in KV: the 6th attempt in 15 minutes gets 429", async () => {
    const ip = "203.0.113.9";
    const user = await createUser("creator");
    for (let i = 0; i < 5; i++) {
      const r = await post("/admin-recovery", { email: user.email, secret: `wrong-${i}` }, undefined, { "CF-Connecting-IP": ip });
      expect(r.status).toBe(200);
    }
    const limited = await post("/admin-recovery", { email: user.email, secret: SECRET }, undefined, { "CF-Connecting-IP": ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain("Please wait 15 minutes before trying again.");
    // Even the right secret does nothing while limited.
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'RATE_LIMIT_EXCEEDED' AND ip = ?", ip)).toBe(1);
  });
});
