// A music partner withdraws a submission still in review (issue 42 §5, docs/decisions/0323): a
// 'Withdraw' link on /music/submissions opens the confirm step (?confirm=withdraw&id=…), whose form
// posts intent "withdraw". The row is deleted with one guarded delete (its partner, status
// in_review), its files (audio, cover, preview) are deleted after it, and an audit row is written.
// Two tabs at once: one withdraws, the other is told. Another partner's id: 404, nothing changes.
// A decided track: 409, nothing changes.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { WITHDRAW_MESSAGES as W } from "~/modules/music/schema";
import { createUser, type TestUser, userBeforeAll } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, redirectTarget, toastOf, withCookie } from "../helpers";
import { tinyWav } from "../platform/actions";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const FIELDS = { title: "Harbour Lights", artist: "The Testers", genre: "Pop", mood: "Happy", bpm: "120", tags: "sea night", rights: "on" };

const admin = userBeforeAll("admin");

beforeAll(async () => {
  await fetchApp("/auth");
}, 180_000);

let n = 0;
const partner = async () => {
  n += 1;
  return createUser("partner", { fullName: `Withdrawer ${n}` });
};

type Row = { status: string; audio_key: string; cover_key: string; preview_key: string | null };
const rowOf = (id: string) => env.DB.prepare("SELECT status, audio_key, cover_key, preview_key FROM music_tracks WHERE id = ?").bind(id).first<Row>();

/** A track of `user` in review, submitted through /music/submit, with a listening preview stored. */
async function trackInReview(user: TestUser, title = FIELDS.title): Promise<{ id: string; keys: string[] }> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...FIELDS, title, submissionKey: crypto.randomUUID() })) form.set(k, v);
  form.set("audio", tinyWav(2));
  form.set("cover", new File([PNG], "c.png", { type: "image/png" }));
  const res = await fetchApp("/music/submit", withCookie(user.cookie, { method: "POST", headers: { Origin: ORIGIN }, body: form }));
  expect(await redirectTarget(res)).toBe("/music/submissions");
  const row = await env.DB.prepare("SELECT id FROM music_tracks WHERE submitted_by = ? AND title = ?").bind(user.id, title).first<{ id: string }>();
  const id = String(row?.id);
  // The preview job's result, set as the job would (its queue is not drained in these tests).
  const previewKey = `music/previews/${user.id}/${crypto.randomUUID()}.mp3`;
  await env.MEDIA.put(previewKey, new Uint8Array([0xff, 0xfb, 0x90, 0x00]));
  await env.DB.prepare("UPDATE music_tracks SET preview_key = ?, preview_size = 4 WHERE id = ?").bind(previewKey, id).run();
  const r = await rowOf(id);
  const keys = [String(r?.audio_key), String(r?.cover_key), previewKey];
  for (const key of keys) expect(await env.MEDIA.head(key)).not.toBeNull();
  return { id, keys };
}

const withdraw = (user: TestUser, id: string) => postForm("/music/submissions", { intent: "withdraw", id }, withCookie(user.cookie));

const stored = async (keys: string[]) => (await Promise.all(keys.map((k) => env.MEDIA.head(k)))).filter((o) => o !== null).length;

const audits = (id: string) =>
  count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'music_track_withdrawn_by_partner' AND details LIKE ?", `%${id}%`);

describe("a partner withdrawing a submission in review", () => {
  it("asks first, then deletes the row and its files, writes an audit row, and the track leaves the review queue", async () => {
    const user = await partner();
    const { id, keys } = await trackInReview(user);

    const list = await (await fetchApp("/music/submissions", withCookie(user.cookie))).text();
    expect(list).toContain(`/music/submissions?confirm=withdraw&amp;id=${id}`);
    expect(list).not.toContain("Withdraw submission");
    // The confirm step is a page state: there, open, without JavaScript, with the form.
    const asking = await (await fetchApp(`/music/submissions?confirm=withdraw&id=${id}`, withCookie(user.cookie))).text();
    expect(asking).toMatch(/<dialog[^>]* open/);
    expect(asking).toContain("Withdraw “Harbour Lights”?");
    expect(asking).toContain('name="intent" value="withdraw"');
    expect(asking).toContain(`name="id" value="${id}"`);
    expect(await (await fetchApp("/admin/music", withCookie(admin.cookie))).text()).toContain("Harbour Lights");

    const res = await withdraw(user, id);
    expect(await redirectTarget(res)).toBe("/music/submissions");
    expect((await toastOf(res))?.title).toBe(W.withdrawn.title);
    expect(await rowOf(id)).toBeNull();
    expect(await stored(keys)).toBe(0);
    expect(await audits(id)).toBe(1);
    expect(await (await fetchApp("/admin/music", withCookie(admin.cookie))).text()).not.toContain("Harbour Lights");
    expect(await (await fetchApp("/music/submissions", withCookie(user.cookie))).text()).not.toContain("Harbour Lights");
  });

  it("of two withdrawals at once, one withdraws and the other is told it is already withdrawn", async () => {
    const user = await partner();
    const { id, keys } = await trackInReview(user, "Twin Tabs");
    const results = await Promise.all([withdraw(user, id), withdraw(user, id)]);
    const outcomes = (await Promise.all(results.map(outcome))).sort();
    expect(outcomes).toEqual(["404", "→/music/submissions"]);
    expect(await rowOf(id)).toBeNull();
    expect(await stored(keys)).toBe(0);
    expect(await audits(id)).toBe(1);
  });

  it("refuses another partner's submission: 404, nothing changed", async () => {
    const owner = await partner();
    const other = await partner();
    const { id, keys } = await trackInReview(owner, "Not Yours");
    const res = await withdraw(other, id);
    expect(await outcome(res)).toBe("404");
    expect(await res.text()).toContain(W.notFound);
    expect((await rowOf(id))?.status).toBe("in_review");
    expect(await stored(keys)).toBe(3);
    expect(await audits(id)).toBe(0);
  });

  it("refuses a track already approved: 409, it stays published with its files", async () => {
    const user = await partner();
    const { id, keys } = await trackInReview(user, "Already Decided");
    const approved = await postForm("/admin/music", { intent: "approve", trackId: id }, withCookie(admin.cookie));
    expect(await redirectTarget(approved)).toBe("/admin/music");
    // No 'Withdraw' for it, and a stale confirm link asks nothing.
    const page = await (await fetchApp(`/music/submissions?confirm=withdraw&id=${id}`, withCookie(user.cookie))).text();
    expect(page).not.toContain(`confirm=withdraw&amp;id=${id}"`);
    expect(page).not.toContain("Withdraw submission");

    const res = await withdraw(user, id);
    expect(await outcome(res)).toBe("409");
    expect(await res.text()).toContain(W.notInReview);
    expect((await rowOf(id))?.status).toBe("published");
    expect(await stored(keys)).toBe(3);
    expect(await audits(id)).toBe(0);
  });
});
