// The admin's music review (/admin/music, issue 13): approve publishes, reject needs a note,
// withdraw takes a published track out with a reason (its licences stay); each decision is made
// once however many admins click at the same time, and only then are the partner's bell
// notification, e-mail and the audit row written.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { insertTrack } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, outcome, postForm, withCookie } from "../helpers";

let admins: [TestUser, TestUser, TestUser];
let partner: TestUser;

beforeAll(async () => {
  admins = await Promise.all([createUser("admin"), createUser("admin"), createUser("admin")]);
  partner = await createUser("partner");
  await fetchApp("/auth");
}, 180_000);

let n = 0;
async function track(status: "in_review" | "published" = "in_review"): Promise<{ id: string; title: string }> {
  n += 1;
  const id = crypto.randomUUID();
  const title = `Review Track ${n}`;
  await insertTrack({
    id,
    title,
    artist: "Reviewed Artist",
    genre: "Pop",
    mood: "Happy",
    bpm: 120,
    durationSeconds: 90,
    audioKey: `music/audio/${partner.id}/${id}.wav`,
    audioSize: 1000,
    status,
    submittedBy: partner.id,
  });
  return { id, title };
}

const decide = (admin: TestUser, fields: Record<string, string>) => postForm("/admin/music", fields, withCookie(admin.cookie));

async function sideEffects(trackId: string, title: string) {
  return {
    notifications: await count(
      "SELECT count(*) AS n FROM user_notifications u JOIN notifications n ON n.id = u.notification_id WHERE u.user_id = ? AND n.content LIKE ?",
      partner.id,
      `%"${title}"%`,
    ),
    emails: await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND body_text LIKE ?", partner.email, `%"${title}"%`),
    audits: await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type LIKE 'music_track_%' AND details LIKE ?", `%${trackId}%`),
  };
}

const statusOf = (id: string) =>
  env.DB.prepare("SELECT status, review_note, reviewed_by, published_at, withdrawn_at, withdraw_reason FROM music_tracks WHERE id = ?").bind(id).first<{
    status: string;
    review_note: string | null;
    reviewed_by: string | null;
    published_at: string | null;
    withdrawn_at: string | null;
    withdraw_reason: string | null;
  }>();

describe("the queue", () => {
  it("shows tracks in review to admins with a play button, and is the admins' only", async () => {
    const t = await track();
    const html = await (await fetchApp("/admin/music", withCookie(admins[0].cookie))).text();
    expect(html).toContain(t.title);
    expect(html).toContain(`Play ${t.title} by Reviewed Artist`);
    expect(html).toContain('href="/admin/music"'); // the console's tab
    expect(await outcome(await fetchApp("/admin/music", withCookie(partner.cookie)))).toBe("→/dashboard");
    expect(await outcome(await decide(partner, { intent: "approve", trackId: t.id }))).toBe("→/dashboard");
    expect((await statusOf(t.id))?.status).toBe("in_review");
  });
});

describe("approve", () => {
  it("publishes once when three admins approve at the same time: one notification, one e-mail, one audit row", async () => {
    const t = await track();
    const results = await Promise.all(admins.map((a) => decide(a, { intent: "approve", trackId: t.id })));
    const outcomes = await Promise.all(results.map(outcome));
    expect(outcomes.filter((o) => o === "→/admin/music")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "409")).toHaveLength(2);
    const row = await statusOf(t.id);
    expect(row?.status).toBe("published");
    expect(row?.published_at).toMatch(/^\d{4}-/);
    expect(await sideEffects(t.id, t.title)).toEqual({ notifications: 1, emails: 1, audits: 1 });
  });

  it("decides once when one admin approves and another rejects at the same time", async () => {
    const t = await track();
    const [a, b] = await Promise.all([
      decide(admins[0], { intent: "approve", trackId: t.id }),
      decide(admins[1], { intent: "reject", trackId: t.id, note: "Too quiet." }),
    ]);
    expect([await outcome(a), await outcome(b)].sort()).toEqual(["409", "→/admin/music"]);
    expect(["published", "rejected"]).toContain((await statusOf(t.id))?.status);
    expect(await sideEffects(t.id, t.title)).toEqual({ notifications: 1, emails: 1, audits: 1 });
  });
});

describe("reject", () => {
  it("needs a note: refused without one, nothing changed", async () => {
    const t = await track();
    for (const note of [undefined, "", "   "]) {
      const res = await decide(admins[0], { intent: "reject", trackId: t.id, ...(note === undefined ? {} : { note }) });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Please write a note for the partner.");
    }
    expect((await statusOf(t.id))?.status).toBe("in_review");
    expect(await sideEffects(t.id, t.title)).toEqual({ notifications: 0, emails: 0, audits: 0 });
  });

  it("rejects with the note, which the partner reads in the bell, the e-mail and on /music/submissions", async () => {
    const t = await track();
    expect(await outcome(await decide(admins[0], { intent: "reject", trackId: t.id, note: "The vocals clip at 0:42." }))).toBe("→/admin/music");
    const row = await statusOf(t.id);
    expect(row).toMatchObject({ status: "rejected", review_note: "The vocals clip at 0:42.", reviewed_by: admins[0].id, published_at: null });
    expect(await sideEffects(t.id, t.title)).toEqual({ notifications: 1, emails: 1, audits: 1 });
    const page = await (await fetchApp("/music/submissions", withCookie(partner.cookie))).text();
    expect(page).toContain("The vocals clip at 0:42.");
  });
});

describe("withdraw", () => {
  it("takes a published track out with a reason; its licences stay; the partner is told once", async () => {
    const t = await track("published");
    const creator = await createUser("creator");
    await env.DB.prepare("INSERT INTO music_licences (id, code, track_id, user_id) VALUES (?, ?, ?, ?)")
      .bind(crypto.randomUUID(), `SB-WDRW-${n}-0000`, t.id, creator.id)
      .run();
    const missing = await decide(admins[0], { intent: "withdraw", trackId: t.id, reason: "" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Please give a reason for withdrawing this track.");
    expect((await statusOf(t.id))?.status).toBe("published");

    const results = await Promise.all(admins.map((a) => decide(a, { intent: "withdraw", trackId: t.id, reason: "Rights dispute" })));
    expect((await Promise.all(results.map(outcome))).filter((o) => o === "→/admin/music")).toHaveLength(1);
    const row = await statusOf(t.id);
    expect(row).toMatchObject({ status: "withdrawn", withdraw_reason: "Rights dispute" });
    expect(row?.withdrawn_at).toMatch(/^\d{4}-/);
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", t.id)).toBe(1);
    expect(await sideEffects(t.id, t.title)).toEqual({ notifications: 1, emails: 1, audits: 1 });
  });

  it("refuses to withdraw a track still in review, and to approve a withdrawn one", async () => {
    const t = await track();
    expect(await outcome(await decide(admins[0], { intent: "withdraw", trackId: t.id, reason: "No" }))).toBe("409");
    expect((await statusOf(t.id))?.status).toBe("in_review");
    const p = await track("published");
    await decide(admins[0], { intent: "withdraw", trackId: p.id, reason: "Gone" });
    expect(await outcome(await decide(admins[0], { intent: "approve", trackId: p.id }))).toBe("409");
    expect((await statusOf(p.id))?.status).toBe("withdrawn");
  });

  it("answers an unknown track with 404", async () => {
    expect(await outcome(await decide(admins[0], { intent: "approve", trackId: crypto.randomUUID() }))).toBe("404");
  });
});
