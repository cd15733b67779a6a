import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SNAPSHOT_RETENTION_DAYS } from "~/modules/channels/analytics";
import { READ_NOTIFICATION_RETENTION_DAYS, purgeReadNotifications } from "~/modules/notifications/notifications.server";
import { runRetention } from "~/modules/privacy/privacy.server";
import { EMAIL_ROW_RETENTION_DAYS, oldEmailIdsQuery } from "~/platform/email-retention.server";
import { createUser } from "../../factories/users";
import { count } from "../helpers";
import { queryPlan } from "../d1-calls";

// Issue 45 §3, decision 0337: the moves of docs/scale.md that keep D1 under its 10 GB, as part of the
// daily retention job (runRetention, called by the daily cron through runPrivacyJobs): read bell
// entries older than 180 days, sent/failed e-mails older than 90 days, and YouTube statistics of a
// channel no longer refreshed for 30 days.

const DAY = 86_400_000;
const now = Date.UTC(2031, 5, 15, 12);
const ago = (days: number) => new Date(now - days * DAY).toISOString();

async function bellEntry(userId: string, tag: string, o: { days: number; read: boolean; audience?: string }) {
  await env.DB.batch([
    env.DB.prepare("INSERT INTO notifications (id, title, content, kind, audience, created_at) VALUES (?, 'T', 'C', 'info', ?, ?)").bind(
      `n-${tag}`,
      o.audience ?? "user",
      ago(o.days),
    ),
    env.DB.prepare("INSERT INTO user_notifications (id, user_id, notification_id, is_read, read_at, created_at) VALUES (?, ?, ?, ?, ?, ?)").bind(
      `un-${tag}`,
      userId,
      `n-${tag}`,
      o.read ? 1 : 0,
      o.read ? ago(o.days - 1) : null,
      ago(o.days),
    ),
  ]);
}

describe("the daily retention job keeps D1 small (decision 0337)", () => {
  it("deletes read bell entries older than 180 days, with the person's own notification; unread, recent and broadcast rows stay", async () => {
    const user = await createUser("creator");
    const tag = crypto.randomUUID().slice(0, 8);
    await bellEntry(user.id, `${tag}-old-read`, { days: READ_NOTIFICATION_RETENTION_DAYS + 1, read: true });
    await bellEntry(user.id, `${tag}-young-read`, { days: READ_NOTIFICATION_RETENTION_DAYS - 1, read: true });
    await bellEntry(user.id, `${tag}-old-unread`, { days: 400, read: false });
    await bellEntry(user.id, `${tag}-old-broadcast`, { days: 400, read: true, audience: "all" });

    const report = await runRetention(now);
    expect(report.readNotifications).toBeGreaterThanOrEqual(2);
    const bell = (await env.DB.prepare("SELECT id FROM user_notifications WHERE user_id = ? ORDER BY id").bind(user.id).all<{ id: string }>()).results;
    expect(bell.map((r) => r.id)).toEqual([`un-${tag}-old-unread`, `un-${tag}-young-read`]);
    // The person's own notification went with its only entry; a broadcast's row (one for all) stays.
    expect(await count("SELECT count(*) AS n FROM notifications WHERE id = ?", `n-${tag}-old-read`)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM notifications WHERE id = ?", `n-${tag}-old-broadcast`)).toBe(1);
  });

  it("deletes in bounded chunks: a run stops after its chunks, the next run goes on", async () => {
    const user = await createUser("creator");
    const tag = crypto.randomUUID().slice(0, 8);
    for (let i = 0; i < 5; i++) await bellEntry(user.id, `${tag}-${i}`, { days: 365, read: true });
    const mine = () => count("SELECT count(*) AS n FROM user_notifications WHERE user_id = ?", user.id);
    // Other tests' old rows may be in the same database: the first run takes at most 2 × 2 of everything old.
    expect(await purgeReadNotifications(now, { chunk: 2, maxChunks: 2 })).toBe(4);
    expect(await mine()).toBeGreaterThanOrEqual(1);
    await purgeReadNotifications(now, { chunk: 2, maxChunks: 10 });
    expect(await mine()).toBe(0);
  });

  it("deletes sent and failed e-mails older than 90 days; recent ones and mail still to send stay", async () => {
    const to = `retention-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const mail = (id: string, days: number, status: string) =>
      env.DB.prepare(
        "INSERT INTO email_outbox (id, to_email, subject, body_text, kind, created_at, status, sent_at, next_attempt_at) VALUES (?, ?, 'S', '', 'payout_paid', ?, ?, ?, ?)",
      ).bind(`${to}-${id}`, to, ago(days), status, status === "sent" ? ago(days) : null, ago(days));
    await env.DB.batch([
      mail("old-sent", EMAIL_ROW_RETENTION_DAYS + 1, "sent"),
      mail("old-failed", EMAIL_ROW_RETENTION_DAYS + 1, "failed"),
      mail("young-sent", EMAIL_ROW_RETENTION_DAYS - 1, "sent"),
      mail("old-pending", 200, "pending"),
    ]);
    const report = await runRetention(now);
    expect(report.emails).toBeGreaterThanOrEqual(2);
    const left = (await env.DB.prepare("SELECT id FROM email_outbox WHERE to_email = ? ORDER BY id").bind(to).all<{ id: string }>()).results;
    expect(left.map((r) => r.id)).toEqual([`${to}-old-pending`, `${to}-young-sent`]);
  });

  it("finds old e-mails by a range of the outbox's due index, not by reading every sent row", async () => {
    const plan = await queryPlan(oldEmailIdsQuery(now, 5000));
    expect(plan).toMatch(/email_outbox_due_idx \(status=\? AND next_attempt_at<\?\)/);
  });

  it("clears the YouTube statistics of a channel not refreshed for 30 days, keeping the link; a refreshed channel keeps them", async () => {
    const user = await createUser("creator");
    const tag = crypto.randomUUID().slice(0, 8);
    const channel = (id: string, days: number) =>
      env.DB.prepare(
        "INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, channel_handle, subscriber_count, view_count, video_count, thumbnail_url, description, last_synced_at, created_at) VALUES (?, ?, ?, ?, '@h', 1200, 340000, 24, 'https://yt3.ggpht.com/x', 'About', ?, ?)",
      ).bind(`${tag}-${id}`, user.id, `UC${tag}${id}`, `Title ${id}`, ago(days), ago(400));
    await env.DB.batch([channel("stale", SNAPSHOT_RETENTION_DAYS + 1), channel("fresh", 1)]);

    const report = await runRetention(now);
    expect(report.staleChannels).toBeGreaterThanOrEqual(1);
    const rows = (
      await env.DB.prepare(
        "SELECT id, channel_title AS title, subscriber_count AS subs, view_count AS views, video_count AS videos, thumbnail_url AS thumb, description FROM youtube_channels WHERE user_id = ? ORDER BY id",
      )
        .bind(user.id)
        .all()
    ).results;
    expect(rows).toEqual([
      { id: `${tag}-fresh`, title: "Title fresh", subs: 1200, views: 340000, videos: 24, thumb: "https://yt3.ggpht.com/x", description: "About" },
      { id: `${tag}-stale`, title: "Title stale", subs: 0, views: 0, videos: 0, thumb: null, description: null },
    ]);
    // Cleared once: the next run changes nothing.
    expect((await runRetention(now)).staleChannels).toBe(0);
  });
});
