import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { payouts } from "~/db/schema";
import { DELETION_GRACE_DAYS, personById } from "~/modules/accounts/accounts.server";
import { payoutPaidQueries } from "~/modules/payments/transfers.server";
import { db } from "~/platform/db.server";
import { emailQuery, emailsQuery } from "~/platform/email.server";
import { runDueDeletions, runRetention } from "~/modules/privacy/privacy.server";
import { EMAIL_BODY_RETENTION_DAYS } from "~/platform/email-retention.server";
import { trackInsert } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { TEST_PASSWORD, count, fetchApp, passwordBeforeAll, postForm, redirectTarget, setCookieValue, withCookie } from "../helpers";
import { present } from "../../helpers/present";

// Issue 28: the privacy policy's promises kept — a copy of one's data, deletion with a 30-day grace
// period and then anonymisation (money records kept), and the retention job. docs/privacy.md.

const password = passwordBeforeAll();
const DAY = 86_400_000;
let ipCounter = 0;
const ip = () => ({ "CF-Connecting-IP": `198.51.100.${(++ipCounter % 250) + 1}` });

/** A person with something in most domains: a linked channel with tokens, a chat message, a ledger line and payout, a notification, an avatar and a source video in R2. */
async function personWithData(label: string) {
  const user = await createUser("creator", { passwordHash: password.hash, fullName: `${label} Person` });
  const id = user.id;
  const channelRow = crypto.randomUUID();
  const room = crypto.randomUUID();
  const notification = crypto.randomUUID();
  const payout = crypto.randomUUID();
  const source = crypto.randomUUID();
  const track = crypto.randomUUID();
  const avatarKey = `avatars/${id}/me.png`;
  const sourceKey = `clipping/sources/${id}/${source}.mp4`;
  await env.AVATARS.put(avatarKey, new Uint8Array([1, 2, 3]));
  await env.MEDIA.put(sourceKey, new Uint8Array([4, 5, 6]));
  await env.DB.batch([
    env.DB.prepare("UPDATE profiles SET avatar_url = ? WHERE user_id = ?").bind(`/media/avatars/${avatarKey}`, id),
    env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, ?)").bind(
      channelRow,
      id,
      `UC${label}${id.slice(0, 8)}`,
      `${label} Channel`,
    ),
    env.DB.prepare("INSERT INTO youtube_channel_tokens (channel_row_id, access_token_enc, refresh_token_enc) VALUES (?, ?, ?)").bind(
      channelRow,
      `enc-access-${label}`,
      `enc-refresh-${label}`,
    ),
    env.DB.prepare("INSERT INTO chat_rooms (id, slug, name) VALUES (?, ?, ?)").bind(room, `room-${id.slice(0, 8)}`, `Room ${label}`),
    env.DB.prepare("INSERT INTO chat_messages (id, room_id, seq, user_id, body) VALUES (?, ?, 1, ?, ?)").bind(
      crypto.randomUUID(),
      room,
      id,
      `Hello from ${label}`,
    ),
    env.DB.prepare("INSERT INTO payouts (id, user_id, batch, amount_cents, status) VALUES (?, ?, '2026-09', 4321, 'pending')").bind(payout, id),
    env.DB.prepare(
      "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status) VALUES (?, ?, '2026-08', 'adjustment', ?, 6173, 7000, 4321, 'finalized')",
    ).bind(crypto.randomUUID(), id, label),
    env.DB.prepare("INSERT INTO notifications (id, title, content) VALUES (?, ?, ?)").bind(notification, `Note for ${label}`, "Hi"),
    env.DB.prepare("INSERT INTO user_notifications (id, user_id, notification_id) VALUES (?, ?, ?)").bind(crypto.randomUUID(), id, notification),
    env.DB.prepare(
      "INSERT INTO clip_sources (id, creator_user_id, name, object_key, content_type, size_bytes, part_bytes, part_count, status) VALUES (?, ?, ?, ?, 'video/mp4', 3, 3, 1, 'ready')",
    ).bind(source, id, `${label} footage.mp4`, sourceKey),
    trackInsert({
      id: track,
      title: `${label} Track`,
      artist: `${label} Artist`,
      audioKey: `music/audio/${id}/${track}.wav`,
      status: "rejected",
      submittedBy: id,
      reviewNote: `${label} note`,
    }),
    env.DB.prepare("INSERT INTO music_track_events (id, track_id, kind, note) VALUES (?, ?, 'rejected', ?)").bind(crypto.randomUUID(), track, `${label} note`),
  ]);
  return { user, avatarKey, sourceKey, channelRow };
}

const settingsPost = (user: TestUser, fields: Record<string, string>) => postForm("/settings", fields, { headers: { Cookie: user.cookie, ...ip() } });
const signIn = (email: string) => postForm("/auth", { intent: "signin", email, password: TEST_PASSWORD }, { headers: ip() });

describe("a copy of my data (GET /settings/export)", () => {
  it("is a JSON attachment of the person's own data — nobody else's, no secrets — and is audit-logged", async () => {
    const a = await personWithData("Alpha");
    const b = await personWithData("Bravo");
    const res = await fetchApp("/settings/export", withCookie(a.user.cookie));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/json");
    expect(res.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="(shortbeat-data-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.json)"; filename\*=UTF-8''\1$/,
    );
    const text = await res.text();
    const data = JSON.parse(text);
    expect(data.profile.email).toBe(a.user.email);
    expect(data.profile.fullName).toBe("Alpha Person");
    expect(data.chatMessages.map((m: { body: string }) => m.body)).toEqual(["Hello from Alpha"]);
    expect(data.payments.ledgerLines).toHaveLength(1);
    expect(data.payments.ledgerLines[0].amountCents).toBe(4321);
    expect(data.payments.payouts).toHaveLength(1);
    expect(data.channels.youtubeChannels[0].title).toBe("Alpha Channel");
    expect(data.notifications[0].title).toBe("Note for Alpha");
    expect(data.clipping.sourceVideos[0].downloadUrl).toMatch(/^\/clipping\/files\//);
    expect(data.sessions.length).toBeGreaterThan(0);
    // A submission's reviews go with it (issue 30), without who reviewed.
    expect(data.music.submittedTracks.map((t: { title: string }) => t.title)).toEqual(["Alpha Track"]);
    expect(data.music.submittedTracks[0].history).toEqual([{ event: "rejected", note: "Alpha note", changes: [], at: expect.any(String) }]);
    // Nobody else's data.
    for (const other of [b.user.email, b.user.id, "Bravo"]) expect(text).not.toContain(other);
    // Never a token or a password hash.
    for (const secret of ["$argon2", "enc-access", "enc-refresh", "password_hash", "passwordHash", "token_hash", a.user.token])
      expect(text).not.toContain(secret);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'data_export' AND user_id = ?", a.user.id)).toBe(1);
  });

  it("is rate-limited per person", async () => {
    const user = await createUser("pending");
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await fetchApp("/settings/export", withCookie(user.cookie))).status);
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it("needs a session", async () => {
    expect((await fetchApp("/settings/export")).status).toBe(401);
  });

  it("never carries another person's address or browser: an admin's action on the person shows without them (issue 40)", async () => {
    const admin = await createUser("admin");
    const { user } = await personWithData("Acted");
    const adminHeaders = { Cookie: admin.cookie, "CF-Connecting-IP": "203.0.113.250", "User-Agent": "AdminBrowser/9.9" };
    const personHeaders = { Cookie: user.cookie, "CF-Connecting-IP": "198.51.100.240", "User-Agent": "PersonBrowser/2.0" };
    expect((await fetchApp(`/admin/users/${user.id}/export`, { headers: adminHeaders })).status).toBe(200);
    expect((await fetchApp("/settings/export", { headers: personHeaders })).status).toBe(200);
    const res = await fetchApp("/settings/export", { headers: personHeaders });
    const text = await res.text();
    expect(text).not.toContain("203.0.113.250");
    expect(text).not.toContain("AdminBrowser");
    const events = (JSON.parse(text) as { securityEvents: { eventType: string; byYou: boolean; ip: string | null; userAgent: string | null }[] })
      .securityEvents;
    expect(events.find((e) => e.eventType === "data_export_by_admin")).toMatchObject({ byYou: false, ip: null, userAgent: null });
    // The person's own action keeps its address and browser.
    expect(events.find((e) => e.eventType === "data_export")).toMatchObject({ byYou: true, ip: "198.51.100.240", userAgent: "PersonBrowser/2.0" });
  });

  it("20 parallel exports: exactly 3 go through (the limit counts atomically, issue 40)", async () => {
    const user = await createUser("pending");
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => fetchApp("/settings/export", withCookie(user.cookie))))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'data_export' AND user_id = ?", user.id)).toBe(3);
  });
});

describe("deleting an account", () => {
  it("wrong password: refused, nothing changes", async () => {
    const { user } = await personWithData("Wrong");
    const res = await settingsPost(user, { intent: "delete-account", password: "Not-the-password1!", confirm: "yes" });
    expect(res.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND deletion_requested_at IS NULL", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id)).toBe(1);
    const unconfirmed = await settingsPost(user, { intent: "delete-account", password: TEST_PASSWORD });
    expect(unconfirmed.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND deletion_requested_at IS NULL", user.id)).toBe(1);
  });

  it("ends every session at once, freezes the account for 30 days, e-mails the person; signing in offers to keep it", async () => {
    const { user } = await personWithData("Grace");
    const res = await settingsPost(user, { intent: "delete-account", password: TEST_PASSWORD, confirm: "yes" });
    expect(await redirectTarget(res)).toBe("/auth");
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id)).toBe(0);
    const row = await env.DB.prepare("SELECT deletion_requested_at AS asked, deletion_due_at AS due FROM users WHERE id = ?")
      .bind(user.id)
      .first<{ asked: string; due: string }>();
    expect(Date.parse(row?.due ?? "") - Date.parse(row?.asked ?? "")).toBe(DELETION_GRACE_DAYS * DAY);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'account_deletion_requested'", user.email)).toBe(1);
    // The old cookie is dead.
    expect(await redirectTarget(await fetchApp("/dashboard", withCookie(user.cookie)))).toMatch(/^\/auth/);

    // Signing in during the grace period: a session, but every page sends it to the offer to keep the account.
    const signedIn = await signIn(user.email);
    const cookie = `__Host-sb_session=${setCookieValue(signedIn, "__Host-sb_session")}`;
    expect(await redirectTarget(await fetchApp("/dashboard", withCookie(cookie)))).toBe("/account-deletion");
    expect(await redirectTarget(await fetchApp("/settings", withCookie(cookie)))).toBe("/account-deletion");
    const page = await fetchApp("/account-deletion", withCookie(cookie));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Keep my account");
    // Keeping it (twice at once: kept once, one audit row).
    const kept = await Promise.all([0, 1].map(() => postForm("/account-deletion", {}, withCookie(cookie))));
    expect(await Promise.all(kept.map(redirectTarget))).toEqual(["/dashboard", "/dashboard"]);
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND deletion_due_at IS NULL AND deleted_at IS NULL", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'account_deletion_cancelled' AND user_id = ?", user.id)).toBe(1);
    expect((await fetchApp("/dashboard", withCookie(cookie))).status).toBe(200);
  });

  it("30 parallel password guesses: at most 5 are checked, the rest refused with 429 (issue 40)", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => settingsPost(user, { intent: "delete-account", password: `Wrong#Guess${i}`, confirm: "yes" })),
    );
    const bodies = await Promise.all(responses.map((r) => r.text()));
    const checked = bodies.filter((b) => b.includes("Incorrect password")).length;
    expect(checked).toBe(5);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(25);
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND deletion_requested_at IS NULL", user.id)).toBe(1);
  });

  it("during the grace period the person can still take their data: sign in, then /settings/export (issue 40)", async () => {
    const { user } = await personWithData("Leaving");
    await settingsPost(user, { intent: "delete-account", password: TEST_PASSWORD, confirm: "yes" });
    // The ended session cannot export.
    expect((await fetchApp("/settings/export", withCookie(user.cookie))).status).toBe(401);
    const signedIn = await signIn(user.email);
    const cookie = `__Host-sb_session=${setCookieValue(signedIn, "__Host-sb_session")}`;
    // The grace page offers the download.
    expect(await (await fetchApp("/account-deletion", withCookie(cookie))).text()).toContain('href="/settings/export"');
    const res = await fetchApp("/settings/export", withCookie(cookie));
    expect(res.status).toBe(200);
    const data = (await res.json()) as { profile: { email: string; deletionDueAt: string | null }; chatMessages: { body: string }[] };
    expect(data.profile.email).toBe(user.email);
    expect(data.profile.deletionDueAt).not.toBeNull();
    expect(data.chatMessages.map((m) => m.body)).toEqual(["Hello from Leaving"]);
    // Only the export: the account stays frozen everywhere else.
    expect((await fetchApp("/api/notifications", withCookie(cookie))).status).toBe(401);
    expect(await redirectTarget(await fetchApp("/settings", withCookie(cookie)))).toBe("/account-deletion");
  });

  it("two parallel requests schedule it once", async () => {
    const { user } = await personWithData("Twice");
    await Promise.all([0, 1].map(() => settingsPost(user, { intent: "delete-account", password: TEST_PASSWORD, confirm: "yes" })));
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'account_deletion_requested' AND target_user_id = ?", user.id)).toBe(1);
  });

  it("a Google-only account deletes after a fresh Google sign-in, not with an old session", async () => {
    const user = await createUser("creator");
    await env.DB.prepare("UPDATE users SET password_hash = NULL WHERE id = ?").bind(user.id).run();
    await env.DB.prepare("UPDATE sessions SET created_at = ? WHERE user_id = ?")
      .bind(new Date(Date.now() - 60 * 60_000).toISOString(), user.id)
      .run();
    const stale = await settingsPost(user, { intent: "delete-account", confirm: "yes" });
    expect(stale.status).toBe(403);
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND deletion_requested_at IS NULL", user.id)).toBe(1);
    await env.DB.prepare("UPDATE sessions SET created_at = ? WHERE user_id = ?").bind(new Date().toISOString(), user.id).run();
    const fresh = await settingsPost(user, { intent: "delete-account", confirm: "yes" });
    expect(await redirectTarget(fresh)).toBe("/auth");
  });

  it("the daily job carries it out after 30 days: no sign-in, the e-mail gone from users, money records and messages kept anonymised, files deleted", async () => {
    const { user, avatarKey, sourceKey, channelRow } = await personWithData("Gone");
    const other = await personWithData("Stays");
    await settingsPost(user, { intent: "delete-account", password: TEST_PASSWORD, confirm: "yes" });
    // Not before its day.
    expect(await runDueDeletions(Date.now() + (DELETION_GRACE_DAYS - 1) * DAY)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM users WHERE email = ?", user.email)).toBe(1);
    const later = Date.now() + (DELETION_GRACE_DAYS + 1) * DAY;
    await runDueDeletions(later);

    expect(await count("SELECT count(*) AS n FROM users WHERE email = ?", user.email)).toBe(0);
    const res = await signIn(user.email);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Invalid login credentials");
    const row = await env.DB.prepare(
      "SELECT u.email, u.password_hash AS hash, u.user_metadata AS meta, u.deleted_at AS deletedAt, p.full_name AS name, p.avatar_url AS avatar FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?",
    )
      .bind(user.id)
      .first<Record<string, string | null>>();
    expect(row).toMatchObject({ email: `deleted-${user.id}@deleted.invalid`, hash: null, meta: "{}", name: "Deleted user", avatar: null });
    expect(row?.deletedAt).not.toBeNull();
    // Kept: ledger lines and payouts (six years), the chat message (as "Deleted user").
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ?", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM payouts WHERE user_id = ?", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM chat_messages WHERE user_id = ?", user.id)).toBe(1);
    // Gone: channel and its YouTube tokens, sessions, notifications, e-mails to the address, files in R2.
    expect(await count("SELECT count(*) AS n FROM youtube_channels WHERE user_id = ?", user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM youtube_channel_tokens WHERE channel_row_id = ?", channelRow)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM user_notifications WHERE user_id = ?", user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", user.email)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM clip_sources WHERE creator_user_id = ?", user.id)).toBe(0);
    expect(await env.AVATARS.head(avatarKey)).toBeNull();
    expect(await env.MEDIA.head(sourceKey)).toBeNull();
    // The other person is untouched.
    expect(await count("SELECT count(*) AS n FROM youtube_channels WHERE user_id = ?", other.user.id)).toBe(1);
    expect(await env.AVATARS.head(other.avatarKey)).not.toBeNull();
    // Running again changes nothing; the address can sign up again.
    expect(await runDueDeletions(later)).toBe(0);
    const again = await postForm(
      "/auth",
      {
        intent: "signup",
        fullName: "Back Again",
        email: user.email,
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
        channelUrl: "https://www.youtube.com/@back",
        subscribers: "1",
        monthlyViews: "1",
        acceptTerms: "on",
      },
      { headers: ip() },
    );
    expect(again.status).toBeLessThan(400);
    expect(await count("SELECT count(*) AS n FROM users WHERE email = ? AND deleted_at IS NULL", user.email)).toBe(1);
  });

  it("money earned is still paid to a deleted account's Stripe account, and no e-mail is ever queued to its deleted address (issue 40)", async () => {
    const { user } = await personWithData("Owed");
    await settingsPost(user, { intent: "delete-account", password: TEST_PASSWORD, confirm: "yes" });
    await runDueDeletions(Date.now() + (DELETION_GRACE_DAYS + 1) * DAY);
    const deleted = `deleted-${user.id}@deleted.invalid`;
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND email = ?", user.id, deleted)).toBe(1);
    // A payout gathered for the balance, sent to the person's connected account; Stripe's webhook marks it paid.
    const payoutId = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO payouts (id, user_id, batch, amount_cents, status, method, stripe_account_id) VALUES (?, ?, '2026-11', 2500, 'processing', 'stripe', 'acct_owed')",
    )
      .bind(payoutId, user.id)
      .run();
    const payout = await db().select().from(payouts).where(eq(payouts.id, payoutId)).get();
    if (!payout) throw new Error("no payout");
    const email = (await personById(user.id))?.email ?? null;
    await db().batch(
      payoutPaidQueries(payout, email, { id: "tr_owed", amount: 2500, destination: "acct_owed" }, new Date().toISOString()) as [
        BatchItem<"sqlite">,
        ...BatchItem<"sqlite">[],
      ],
    );
    expect(await count("SELECT count(*) AS n FROM payouts WHERE id = ? AND status = 'paid'", payoutId)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", deleted)).toBe(0);
    // The guard is where every e-mail is queued: one at a time, or many at once next to a live address.
    await emailQuery({ to: deleted, kind: "account_approved", subject: "S", text: "T" }).run();
    for (const q of emailsQuery(
      [
        { to: deleted, text: "T" },
        { to: "alive@example.com", text: "T" },
      ],
      "S",
      "account_approved",
    ))
      await q.run();
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email LIKE '%.invalid'")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = 'alive@example.com'")).toBe(1);
  });

  it("/dev/factory intent=run-deletions-now carries out a pending deletion at once", async () => {
    const { user } = await personWithData("Factory");
    await settingsPost(user, { intent: "delete-account", password: TEST_PASSWORD, confirm: "yes" });
    const res = await postForm("/dev/factory", { intent: "run-deletions-now", email: user.email });
    expect(res.status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND deleted_at IS NOT NULL", user.id)).toBe(1);
    expect((await postForm("/dev/factory", { intent: "run-deletions-now", email: user.email })).status).toBe(404);
  });

  it("an admin can start a deletion and export the data of a person who asked by e-mail", async () => {
    const admin = await createUser("admin");
    const { user } = await personWithData("Asked");
    const exported = await fetchApp(`/admin/users/${user.id}/export`, withCookie(admin.cookie));
    expect(exported.status).toBe(200);
    expect(((await exported.json()) as { profile: { email: string } }).profile.email).toBe(user.email);
    expect((await fetchApp(`/admin/users/${user.id}/export`, withCookie(user.cookie))).status).toBe(403);
    const res = await postForm("/admin", { intent: "delete_account", userId: user.id, confirm: "yes" }, withCookie(admin.cookie));
    expect(await redirectTarget(res)).toMatch(/^\/admin/);
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ? AND deletion_due_at IS NOT NULL", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'data_export_by_admin' AND target_user_id = ?", user.id)).toBe(1);
  });
});

describe("the retention job", () => {
  it("purges audit entries over 12 months, CSP reports over 90 days, ended sessions and old e-mail bodies; keeps the rest", async () => {
    const now = Date.now();
    const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
    const user = await createUser("creator");
    const tag = crypto.randomUUID();
    const to = `retention-${tag.slice(0, 8)}@example.com`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO security_audit_log (id, event_type, details, created_at) VALUES (?, 'sign_in_success', ?, ?)").bind(
        `${tag}-old`,
        tag,
        iso(366 * DAY),
      ),
      env.DB.prepare("INSERT INTO security_audit_log (id, event_type, details, created_at) VALUES (?, 'sign_in_success', ?, ?)").bind(
        `${tag}-new`,
        tag,
        iso(300 * DAY),
      ),
      env.DB.prepare("INSERT INTO security_audit_log (id, event_type, details, created_at) VALUES (?, 'csp_violation', ?, ?)").bind(
        `${tag}-csp-old`,
        tag,
        iso(91 * DAY),
      ),
      env.DB.prepare("INSERT INTO security_audit_log (id, event_type, details, created_at) VALUES (?, 'csp_violation', ?, ?)").bind(
        `${tag}-csp-new`,
        tag,
        iso(10 * DAY),
      ),
      env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, ip) VALUES (?, ?, ?, ?, '192.0.2.1')").bind(
        `${tag}-expired`,
        user.id,
        iso(DAY),
        iso(-DAY),
      ),
      env.DB.prepare(
        "INSERT INTO email_outbox (id, to_email, subject, body_text, kind, created_at, status, sent_at) VALUES (?, ?, 'Old', 'old body with a link', 'payout_paid', ?, 'sent', ?)",
      ).bind(`${tag}-mail-old`, to, iso((EMAIL_BODY_RETENTION_DAYS + 1) * DAY), iso((EMAIL_BODY_RETENTION_DAYS + 1) * DAY)),
      env.DB.prepare(
        "INSERT INTO email_outbox (id, to_email, subject, body_text, kind, created_at, status, sent_at) VALUES (?, ?, 'New', 'new body', 'payout_paid', ?, 'sent', ?)",
      ).bind(`${tag}-mail-new`, to, iso(DAY), iso(DAY)),
    ]);
    const report = await runRetention(now);
    expect(report.auditEntries).toBeGreaterThanOrEqual(1);
    const ids = async (sql: string) => (await env.DB.prepare(sql).bind(tag).all<{ id: string }>()).results.map((r) => r.id).sort();
    expect(await ids("SELECT id FROM security_audit_log WHERE details = ?")).toEqual([`${tag}-csp-new`, `${tag}-new`]);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE id = ?", `${tag}-expired`)).toBe(0);
    // The user's live session stays.
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id)).toBe(1);
    const mails = (
      await env.DB.prepare("SELECT id, subject, body_text AS body, body_purged_at AS purged FROM email_outbox WHERE to_email = ? ORDER BY id")
        .bind(to)
        .all<Record<string, string | null>>()
    ).results;
    expect(mails).toMatchObject([
      { id: `${tag}-mail-new`, subject: "New", body: "new body", purged: null },
      { id: `${tag}-mail-old`, subject: "Old", body: "" },
    ]);
    expect(present(mails[1], "the old mail").purged).not.toBeNull();
  });
});
