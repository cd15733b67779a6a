import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { validateSessionToken } from "~/modules/accounts/accounts.server";
import { sha256Hex } from "~/platform/crypto.server";
import { type TrackStatus, trackInsert } from "../../factories/tracks";
import { createUser, signInAs } from "../../factories/users";
import { ORIGIN, TEST_PASSWORD, fetchApp, passwordBeforeAll, postForm, redirectTarget, withCookie } from "../helpers";
import { present } from "../../helpers/present";

// The accounts module in its target shape: the one session query, one-time links used once
// even under a race, the settings and dashboard actions, and the failure payload of an action.

const password = passwordBeforeAll();

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("the session query", () => {
  it("sees the admin role, an approved active agency and the unread count in one lookup", async () => {
    const admin = await createUser("admin");
    const agency = await createUser("agency");
    const creator = await createUser("creator");
    const notificationId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO notifications (id, title, content) VALUES (?, 'Hello', 'Body')").bind(notificationId),
      env.DB.prepare("INSERT INTO user_notifications (id, user_id, notification_id, is_read) VALUES (?, ?, ?, 0)").bind(
        crypto.randomUUID(),
        creator.id,
        notificationId,
      ),
      env.DB.prepare("INSERT INTO user_notifications (id, user_id, notification_id, is_read) VALUES (?, ?, ?, 1)").bind(
        crypto.randomUUID(),
        creator.id,
        notificationId,
      ),
    ]);

    const asAdmin = await validateSessionToken(admin.token);
    const asAgency = await validateSessionToken(agency.token);
    const asCreator = await validateSessionToken(creator.token);
    expect([asAdmin?.isAdmin, asAdmin?.hasActiveAgency]).toEqual([true, false]);
    expect([asAgency?.isAdmin, asAgency?.hasActiveAgency]).toEqual([false, true]);
    expect([asCreator?.isAdmin, asCreator?.hasActiveAgency, asCreator?.unreadCount]).toEqual([false, false, 1]);
    expect(asCreator).toMatchObject({
      id: creator.id,
      email: creator.email,
      approvalStatus: "approved",
      isBanned: false,
      emailVerified: true,
    });
  });

  it("stops counting an agency that is no longer active", async () => {
    const agency = await createUser("agency");
    await env.DB.prepare("UPDATE agencies SET status = 'inactive' WHERE id = ?").bind(agency.agencyId).run();
    expect((await validateSessionToken(agency.token))?.hasActiveAgency).toBe(false);
    // The sidebar reads the same flag.
    const page = await fetchApp("/settings", withCookie(agency.cookie));
    expect(await page.text()).not.toContain('href="/agency-dashboard"');
  });
});

describe("one-time links are used once, also when two requests race", () => {
  async function mailedToken(email: string, kind: string): Promise<string> {
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = ? ORDER BY created_at DESC")
      .bind(email, kind)
      .first<{ body_text: string }>();
    return present(/token=(\w+)/.exec(mail!.body_text)?.[1], "the link's token in the mail");
  }

  it("e-mail verification: one confirmation succeeds, the other is refused, one audit row", async () => {
    const email = `race-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signUp = await postForm(
      "/auth",
      {
        intent: "signup",
        fullName: "Race Condition",
        email,
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
        channelUrl: "https://www.youtube.com/@race",
        subscribers: "1",
        monthlyViews: "1",
        acceptTerms: "on",
      },
      { headers: { "CF-Connecting-IP": "203.0.113.90" } },
    );
    expect(await redirectTarget(signUp)).toBe("/auth?created=1");
    const token = await mailedToken(email, "email_verification");
    const answers = await Promise.all([postForm("/auth/verify-email", { token }), postForm("/auth/verify-email", { token })]);
    expect(answers.map((r) => r.status).sort()).toEqual([302, 400]);
    const userId = (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>())!.id;
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'email_verified' AND user_id = ?", userId)).toBe(1);
  });

  it("password reset: one new password wins, the other request changes nothing", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    await postForm("/auth/forgot-password", { email: user.email }, { headers: { "CF-Connecting-IP": "203.0.113.91" } });
    const token = await mailedToken(user.email, "password_reset");
    const answers = await Promise.all(
      ["First!Pass1", "Second!Pass2"].map((password) => postForm("/auth/reset-password", { token, password, confirmPassword: password })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([302, 400]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'password_reset' AND user_id = ?", user.id)).toBe(1);
    const loser = answers.find((r) => r.status === 400)!;
    expect(await loser.text()).toContain("This link is invalid or has expired. Please ask for a new one.");
  });
});

describe("settings: one session at a time", () => {
  it("ends the named session of the user only; an unknown one is 'Action failed' / 'Unknown session.'", async () => {
    const user = await createUser("creator");
    const other = await signInAs(user.id);
    const stranger = await createUser("creator");
    const prefixOf = async (token: string) =>
      (await env.DB.prepare("SELECT substr(id, 1, 12) AS p FROM sessions WHERE id = ?").bind(sha256Hex(token)).first<{ p: string }>())!.p;

    const bad = await postForm("/settings", { intent: "sign-out-session", session: "not-hex" }, { headers: { Cookie: user.cookie } });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Action failed");
    expect(html).toContain("Unknown session.");

    // Someone else's session is not the user's to end.
    await postForm("/settings", { intent: "sign-out-session", session: await prefixOf(stranger.token) }, { headers: { Cookie: user.cookie } });
    expect((await fetchApp("/api/session", withCookie(stranger.cookie))).status).toBe(200);

    const ok = await postForm("/settings", { intent: "sign-out-session", session: await prefixOf(other.token) }, { headers: { Cookie: user.cookie } });
    expect(ok.status).toBe(200);
    expect((await fetchApp("/api/session", withCookie(other.cookie))).status).toBe(401);
    expect((await fetchApp("/api/session", withCookie(user.cookie))).status).toBe(200);
  });
});

describe("the dashboard's numbers", () => {
  it("counts published tracks, and linked channels plus verified manual submissions of this user only", async () => {
    const user = await createUser("creator");
    const other = await createUser("creator");
    const published = await count("SELECT count(*) AS n FROM music_tracks WHERE status = 'published'");
    const track = (status: TrackStatus) => trackInsert({ title: "T", artist: "A", audioKey: `tracks/${crypto.randomUUID()}.wav`, status, publishedAt: null });
    const channel = (userId: string) =>
      env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Mine')").bind(
        crypto.randomUUID(),
        userId,
        `UC${crypto.randomUUID().slice(0, 8)}`,
      );
    const submission = (userId: string, status: string) =>
      env.DB.prepare("INSERT INTO manual_channel_submissions (id, user_id, creator_id, channel_name, status) VALUES (?, ?, 'X', ?, ?)").bind(
        crypto.randomUUID(),
        userId,
        `Manual ${status}`,
        status,
      );
    await env.DB.batch([
      track("published"),
      track("withdrawn"),
      track("in_review"),
      channel(user.id),
      channel(other.id),
      submission(user.id, "verified"),
      submission(user.id, "pending"),
      submission(other.id, "verified"),
    ]);

    const html = await (await fetchApp("/dashboard", withCookie(user.cookie))).text();
    expect(html).toContain(`${published + 1} royalty-free tracks available`);
    expect(html).toContain("2 channel(s) connected");
    const none = await (await fetchApp("/dashboard", withCookie((await createUser("creator")).cookie))).text();
    expect(none).toContain("Connect your first channel");
  });
});

describe("a refused action answers the one failure shape", () => {
  it("sign-in over .data: 400 with code, intent, the spec's toast and no session", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const res = await fetchApp("/auth.data", {
      method: "POST",
      headers: { Origin: ORIGIN, "CF-Connecting-IP": "203.0.113.92" },
      body: new URLSearchParams({ intent: "signin", email: user.email, password: "Wrong!Passw0rd" }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.getSetCookie().some((c) => c.includes("sb_session="))).toBe(false);
    const body = await res.text();
    for (const part of ["invalid_input", "signin", "Login failed", "Invalid login credentials"]) expect(body).toContain(part);
  });
});
