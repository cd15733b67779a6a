// Resubmitting a rejected track (issue 30): its partner sends it back to review with changes
// (fields, optionally new audio or cover) at /music/submissions/:id/resubmit; the rejection and the
// resubmission stay in the track's history, which the partner and the reviewing admin see. Only the
// owner (404 for another partner, the guard for a creator, 403 from the module), only a rejected
// track (409), two tabs at once make one new round, bad input changes nothing. docs/decisions/0260.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "~/lib/errors";
import { resubmitTrack } from "~/modules/music/music.server";
import { RESUBMIT_MESSAGES as R, SUBMIT_MESSAGES as M } from "~/modules/music/schema";
import { actorFor } from "../../factories/actors";
import { createUser, type TestUser, userBeforeAll } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, redirectTarget, withCookie } from "../helpers";
import { tinyWav } from "../platform/actions";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const FIELDS = { title: "Night Market", artist: "The Testers", genre: "Pop", mood: "Happy", bpm: "120", tags: "city night", rights: "on" };
const NOTE = "The vocals clip at 1:02; please send a cleaner master.";

const admin = userBeforeAll("admin");
const creator = userBeforeAll("creator");

beforeAll(async () => {
  await fetchApp("/auth");
}, 180_000);

let n = 0;
const partner = async () => {
  n += 1;
  return createUser("partner", { fullName: `Resubmitter ${n}` });
};

type Files = { audio?: File | null; cover?: File | null };

/** A multipart form as the page sends it; no file chosen is an empty file field, as browsers send it. */
function formOf(fields: Record<string, string>, files: Files = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("audio", files.audio ?? new File([], "", { type: "application/octet-stream" }));
  form.set("cover", files.cover ?? new File([], "", { type: "application/octet-stream" }));
  return form;
}

const resubmit = (user: TestUser, id: string, fields: Record<string, string> = {}, files: Files = {}) =>
  fetchApp(
    `/music/submissions/${id}/resubmit`,
    withCookie(user.cookie, { method: "POST", headers: { Origin: ORIGIN }, body: formOf({ ...FIELDS, ...fields }, files) }),
  );

/** A track of `user`, submitted through /music/submit and rejected by the admin with NOTE. */
async function rejectedTrack(user: TestUser): Promise<string> {
  const form = formOf({ submissionKey: crypto.randomUUID(), ...FIELDS }, { audio: tinyWav(2), cover: new File([PNG], "c.png", { type: "image/png" }) });
  const res = await fetchApp("/music/submit", withCookie(user.cookie, { method: "POST", headers: { Origin: ORIGIN }, body: form }));
  expect(await redirectTarget(res)).toBe("/music/submissions");
  const row = await env.DB.prepare("SELECT id FROM music_tracks WHERE submitted_by = ? ORDER BY created_at DESC").bind(user.id).first<{ id: string }>();
  const id = String(row?.id);
  await reject(id);
  return id;
}

async function reject(id: string, note = NOTE) {
  const res = await postForm("/admin/music", { intent: "reject", trackId: id, note }, withCookie(admin.cookie));
  expect(await redirectTarget(res)).toBe("/admin/music");
}

const rowOf = (id: string) =>
  env.DB.prepare("SELECT status, title, tags, bpm, review_note, reviewed_at, audio_key, cover_key, duration_seconds FROM music_tracks WHERE id = ?")
    .bind(id)
    .first<{
      status: string;
      title: string;
      tags: string;
      bpm: number;
      review_note: string | null;
      reviewed_at: string | null;
      audio_key: string;
      cover_key: string;
      duration_seconds: number;
    }>();

const eventsOf = async (id: string) =>
  (
    await env.DB.prepare("SELECT kind, note, changes FROM music_track_events WHERE track_id = ? ORDER BY created_at, rowid").bind(id).all<{
      kind: string;
      note: string | null;
      changes: string;
    }>()
  ).results.map((e) => ({ kind: e.kind, note: e.note, changes: JSON.parse(e.changes) }));

describe("a rejected track resubmitted by its partner", () => {
  it("goes back to review with the changes, the rejection kept in its history, seen by the partner and the admin", async () => {
    const user = await partner();
    const id = await rejectedTrack(user);
    expect(await eventsOf(id)).toEqual([{ kind: "rejected", note: NOTE, changes: [] }]);

    // The resubmit page shows the reviewer's note and the form filled in.
    const page = await fetchApp(`/music/submissions/${id}/resubmit`, withCookie(user.cookie));
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain(NOTE);
    expect(pageHtml).toContain('value="Night Market"');
    // …and none of the track's storage keys (its audio, cover or listening preview).
    await env.DB.prepare("UPDATE music_tracks SET preview_key = ? WHERE id = ?").bind(`music/previews/${user.id}/p.mp3`, id).run();
    const keysShown = await (await fetchApp(`/music/submissions/${id}/resubmit`, withCookie(user.cookie))).text();
    expect(keysShown).toContain(NOTE);
    expect(keysShown).not.toMatch(/music\/(audio|covers|previews)\//);

    const before = await rowOf(id);
    const res = await resubmit(user, id, { title: "Night Market (Clean Master)", tags: "city night clean" });
    expect(await redirectTarget(res)).toBe("/music/submissions");
    const after = await rowOf(id);
    expect(after).toMatchObject({ status: "in_review", title: "Night Market (Clean Master)", tags: "city night clean", review_note: null, reviewed_at: null });
    // No file chosen: the stored files stay.
    expect(after?.audio_key).toBe(before?.audio_key);
    expect(after?.cover_key).toBe(before?.cover_key);
    expect(await env.MEDIA.head(String(before?.audio_key))).not.toBeNull();
    expect(await eventsOf(id)).toEqual([
      { kind: "rejected", note: NOTE, changes: [] },
      { kind: "resubmitted", note: null, changes: ["title", "tags"] },
    ]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'music_track_resubmitted' AND details LIKE ?", `%${id}%`)).toBe(1);

    const list = await (await fetchApp("/music/submissions", withCookie(user.cookie))).text();
    expect(list).toContain("Resubmitted");
    expect(list).toContain(NOTE);
    expect(list).toContain("changed: title, tags");

    const queue = await (await fetchApp("/admin/music", withCookie(admin.cookie))).text();
    expect(queue).toContain("Night Market (Clean Master)");
    expect(queue).toContain("earlier rounds");
    expect(queue).toContain(NOTE);
  });

  it("replaces the audio when a new file is chosen: new length, the old object deleted", async () => {
    const user = await partner();
    const id = await rejectedTrack(user);
    const before = await rowOf(id);
    const res = await resubmit(user, id, {}, { audio: tinyWav(4) });
    expect(await redirectTarget(res)).toBe("/music/submissions");
    const after = await rowOf(id);
    expect(after?.status).toBe("in_review");
    expect(after?.duration_seconds).toBe(4);
    expect(after?.audio_key).not.toBe(before?.audio_key);
    expect(await env.MEDIA.head(String(after?.audio_key))).not.toBeNull();
    expect(await env.MEDIA.head(String(before?.audio_key))).toBeNull();
    expect((await eventsOf(id)).at(-1)).toEqual({ kind: "resubmitted", note: null, changes: ["audio"] });
  });

  it("keeps every round: rejected, resubmitted, rejected again, resubmitted, approved", async () => {
    const user = await partner();
    const id = await rejectedTrack(user);
    expect(await redirectTarget(await resubmit(user, id, { bpm: "124" }))).toBe("/music/submissions");
    await reject(id, "Still clipping at 1:02.");
    expect(await redirectTarget(await resubmit(user, id, { bpm: "124", mood: "Chill" }))).toBe("/music/submissions");
    const approved = await postForm("/admin/music", { intent: "approve", trackId: id, note: "" }, withCookie(admin.cookie));
    expect(await redirectTarget(approved)).toBe("/admin/music");
    expect(await eventsOf(id)).toEqual([
      { kind: "rejected", note: NOTE, changes: [] },
      { kind: "resubmitted", note: null, changes: ["bpm"] },
      { kind: "rejected", note: "Still clipping at 1:02.", changes: [] },
      { kind: "resubmitted", note: null, changes: ["mood"] },
      { kind: "approved", note: null, changes: [] },
    ]);
    const list = await (await fetchApp("/music/submissions", withCookie(user.cookie))).text();
    expect(list).toContain("Still clipping at 1:02.");
    expect(list).toContain(NOTE);
  });
});

describe("who may resubmit", () => {
  it("another partner: 404 for the page and the action, nothing changes", async () => {
    const owner = await partner();
    const other = await partner();
    const id = await rejectedTrack(owner);
    expect((await fetchApp(`/music/submissions/${id}/resubmit`, withCookie(other.cookie))).status).toBe(404);
    const res = await resubmit(other, id, { title: "Stolen" });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain(R.notFound);
    expect((await rowOf(id))?.status).toBe("rejected");
    expect((await rowOf(id))?.title).toBe("Night Market");
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it("a creator: the partner guard sends them away, and the module refuses them with 403", async () => {
    const owner = await partner();
    const id = await rejectedTrack(owner);
    expect(await outcome(await resubmit(creator, id, { title: "Stolen" }))).toBe("→/dashboard");
    const error = await resubmitTrack(actorFor(creator), new Request(ORIGIN), id, formOf(FIELDS)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(403);
    expect((await rowOf(id))?.status).toBe("rejected");
    expect(await eventsOf(id)).toHaveLength(1);
  });
});

describe("only a rejected track, once", () => {
  it("refuses a track in review or published with 409 and a clear message", async () => {
    const user = await partner();
    const id = await rejectedTrack(user);
    expect(await redirectTarget(await resubmit(user, id))).toBe("/music/submissions");
    const again = await resubmit(user, id, { title: "Twice" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(R.notRejected);
    await postForm("/admin/music", { intent: "approve", trackId: id, note: "" }, withCookie(admin.cookie));
    const published = await resubmit(user, id, { title: "Thrice" });
    expect(published.status).toBe(409);
    expect((await rowOf(id))?.title).toBe("Night Market");
    expect((await eventsOf(id)).filter((e) => e.kind === "resubmitted")).toHaveLength(1);
  });

  it("two tabs changing only the details at once make one new review round", async () => {
    const user = await partner();
    const id = await rejectedTrack(user);
    const results = await Promise.all(["Tab One", "Tab Two", "Tab Three", "Tab Four"].map((title) => resubmit(user, id, { title })));
    const statuses = await Promise.all(results.map(async (r) => ((await redirectTarget(r)) === "/music/submissions" ? "ok" : r.status)));
    expect(statuses.filter((s) => s === "ok")).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    expect((await eventsOf(id)).filter((e) => e.kind === "resubmitted")).toHaveLength(1);
  });

  it("parallel resubmissions that all passed the status check: the guarded update lets one through", async () => {
    // Through HTTP the requests above reach the status check one after another in workerd; called
    // in parallel here, every call reads 'rejected' first, so only the guarded update decides.
    const user = await partner();
    const id = await rejectedTrack(user);
    const actor = actorFor(user, { isMusicPartner: true });
    const outcomes = await Promise.all(
      ["One", "Two", "Three", "Four"].map((title) =>
        resubmitTrack(actor, new Request(ORIGIN), id, formOf({ ...FIELDS, title })).then(
          () => "ok",
          (e: unknown) => (e instanceof DomainError ? `${e.status} ${e.message}` : String(e)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
    expect(outcomes.filter((o) => o === `409 ${R.notRejected}`)).toHaveLength(3);
    expect((await eventsOf(id)).filter((e) => e.kind === "resubmitted")).toHaveLength(1);
  });

  it("two tabs resubmitting at once make one new review round", async () => {
    const user = await partner();
    const id = await rejectedTrack(user);
    const objectsBefore = (await env.MEDIA.list({ prefix: `music/audio/${user.id}/` })).objects.length;
    const results = await Promise.all([
      resubmit(user, id, { title: "Tab One" }, { audio: tinyWav(3) }),
      resubmit(user, id, { title: "Tab Two" }, { audio: tinyWav(3) }),
      resubmit(user, id, { title: "Tab Three" }),
    ]);
    const statuses = await Promise.all(results.map(async (r) => ((await redirectTarget(r)) === "/music/submissions" ? "ok" : r.status)));
    expect(statuses.filter((s) => s === "ok")).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(2);
    expect((await eventsOf(id)).filter((e) => e.kind === "resubmitted")).toHaveLength(1);
    expect((await rowOf(id))?.status).toBe("in_review");
    // The losing tabs' uploads are deleted: one audio object, whichever tab won.
    expect((await env.MEDIA.list({ prefix: `music/audio/${user.id}/` })).objects.length).toBe(objectsBefore);
  });
});

describe("bad input", () => {
  it("says what is wrong with each field and changes nothing", async () => {
    const user = await partner();
    const id = await rejectedTrack(user);
    const before = await rowOf(id);
    const objects = (await env.MEDIA.list({ prefix: "music/" })).objects.length;
    const res = await resubmit(
      user,
      id,
      { title: " ", bpm: "999", genre: "Polka", rights: "" },
      { audio: new File([PNG], "song.mp3", { type: "audio/mpeg" }) },
    );
    expect(res.status).toBe(400);
    const text = await res.text();
    for (const message of [
      "Please enter the track's title.",
      "BPM must be a whole number from 40 to 250.",
      "Please choose a genre from the list.",
      "Please confirm that you own or control the rights to this track.",
      M.audioType,
    ]) {
      expect(text, message).toContain(message);
    }
    expect(await rowOf(id)).toEqual(before);
    expect(await eventsOf(id)).toHaveLength(1);
    expect((await env.MEDIA.list({ prefix: "music/" })).objects.length).toBe(objects);
  });

  it("an id that is not a track: 404", async () => {
    const user = await partner();
    expect((await resubmit(user, "not-a-track")).status).toBe(404);
    expect((await resubmit(user, crypto.randomUUID())).status).toBe(404);
  });
});
