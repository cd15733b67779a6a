// Preview streaming (issue 13): /music/audio/:id answers HTTP Range from R2 (200 with
// Accept-Ranges, 206 with the exact slice, 416 with `bytes */size`), /music/cover/:id serves the
// cover with its stored type; both only to signed-in approved users and only for tracks they may
// hear (published; unpublished: its submitter and admins). docs/decisions/0105.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type TrackStatus, trackInsert } from "../../factories/tracks";
import { createUser, signInAs, type TestUser } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";

const SIZE = 1000;
const AUDIO = Uint8Array.from({ length: SIZE }, (_, i) => (i * 7 + 3) % 251);
// A 1×1 PNG is not needed: the cover route serves what R2 holds with its stored type.
const COVER = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

let creator: TestUser;
let pending: TestUser;
let banned: TestUser;
let partner: TestUser;
let otherPartner: TestUser;
let admin: TestUser;

const ids = {
  published: crypto.randomUUID(),
  inReview: crypto.randomUUID(),
  rejected: crypto.randomUUID(),
  withdrawn: crypto.randomUUID(),
  noCover: crypto.randomUUID(),
  untyped: crypto.randomUUID(),
  withPreview: crypto.randomUUID(),
  previewInReview: crypto.randomUUID(),
};

/** A track's listening preview (issue 30): another object, another size, so a response tells which one it is. */
const PREVIEW_SIZE = 300;
const PREVIEW = Uint8Array.from({ length: PREVIEW_SIZE }, (_, i) => (i * 11 + 5) % 253);

async function addPreview(id: string) {
  const previewKey = `music/previews/${id}.mp3`;
  await env.MEDIA.put(previewKey, PREVIEW, { httpMetadata: { contentType: "audio/mpeg" } });
  await env.DB.prepare("UPDATE music_tracks SET preview_key = ?, preview_size = ? WHERE id = ?").bind(previewKey, PREVIEW_SIZE, id).run();
}

async function insertTrack(id: string, status: TrackStatus, opts: { submittedBy?: string; cover?: boolean; audioType?: string | null } = {}) {
  const audioKey = `music/audio/${id}.wav`;
  const coverKey = opts.cover === false ? null : `music/covers/${id}.png`;
  await env.MEDIA.put(audioKey, AUDIO, opts.audioType === null ? {} : { httpMetadata: { contentType: opts.audioType ?? "audio/wav" } });
  if (coverKey) await env.MEDIA.put(coverKey, COVER, { httpMetadata: { contentType: "image/png" } });
  await trackInsert({
    id,
    title: `Stream ${status}`,
    artist: "Stream Artist",
    genre: "Ambient",
    mood: "Calm",
    bpm: 90,
    durationSeconds: 30,
    audioKey,
    audioContentType: "audio/wav",
    audioSize: SIZE,
    coverKey,
    peaks: "[1,2,3]",
    status,
    submittedBy: opts.submittedBy ?? null,
  }).run();
}

beforeAll(async () => {
  [creator, pending, banned, partner, otherPartner, admin] = await Promise.all([
    createUser("creator"),
    createUser("pending"),
    createUser("banned"),
    createUser("partner"),
    createUser("partner"),
    createUser("admin"),
  ]);
  await insertTrack(ids.published, "published", { submittedBy: partner.id });
  await insertTrack(ids.inReview, "in_review", { submittedBy: partner.id });
  await insertTrack(ids.rejected, "rejected", { submittedBy: partner.id });
  await insertTrack(ids.withdrawn, "withdrawn", { submittedBy: partner.id });
  await insertTrack(ids.noCover, "published", { cover: false });
  await insertTrack(ids.untyped, "published", { audioType: null });
  await insertTrack(ids.withPreview, "published", { submittedBy: partner.id });
  await insertTrack(ids.previewInReview, "in_review", { submittedBy: partner.id });
  await addPreview(ids.withPreview);
  await addPreview(ids.previewInReview);
  await fetchApp("/auth"); // the first request compiles the app
}, 180_000);

const audio = (id: string, user: TestUser | null, headers: Record<string, string> = {}, method = "GET") =>
  fetchApp(`/music/audio/${id}`, withCookie(user?.cookie ?? null, { method, headers }));

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("GET /music/audio/:id — HTTP Range", () => {
  it("without Range: 200, the whole file, Accept-Ranges: bytes, private caching, an ETag", async () => {
    const res = await audio(ids.published, creator);
    expect(res.status).toBe(200);
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(res.headers.get("Content-Type")).toBe("audio/wav");
    expect(res.headers.get("Content-Length")).toBe(String(SIZE));
    expect(res.headers.get("Cache-Control")).toMatch(/^private\b/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("ETag")).toBeTruthy();
    expect(await bytesOf(res)).toEqual(AUDIO);
  });

  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=10-19", 10, 19],
    ["bytes=990-", 990, 999],
    ["bytes=-5", 995, 999],
    ["bytes=500-5000", 500, 999], // the end is clamped to the last byte
    ["bytes=999-999", 999, 999],
    ["bytes=-5000", 0, 999], // a suffix longer than the file is the whole file
  ])("%s → 206 with Content-Range and exactly those bytes", async (range, first, last) => {
    const res = await audio(ids.published, creator, { Range: range });
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Range")).toBe(`bytes ${first}-${last}/${SIZE}`);
    expect(res.headers.get("Content-Length")).toBe(String(last - first + 1));
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(await bytesOf(res)).toEqual(AUDIO.slice(first, last + 1));
  });

  it.each(["bytes=1000-", "bytes=5000-6000", "bytes=-0"])("%s → 416 with Content-Range: bytes */size", async (range) => {
    const res = await audio(ids.published, creator, { Range: range });
    expect(res.status).toBe(416);
    expect(res.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    expect((await bytesOf(res)).length).toBe(0);
  });

  it("several ranges, another unit or a malformed header: 200 with the whole file (documented)", async () => {
    for (const range of ["bytes=0-1,5-6", "items=0-5", "bytes=abc", "bytes=20-10"]) {
      const res = await audio(ids.published, creator, { Range: range });
      expect(res.status, range).toBe(200);
      expect(await bytesOf(res)).toEqual(AUDIO);
    }
  });

  it("If-Range: the range applies with the current ETag, the whole file otherwise", async () => {
    const etag = (await audio(ids.published, creator, {}, "HEAD")).headers.get("ETag") ?? "";
    const same = await audio(ids.published, creator, { Range: "bytes=0-9", "If-Range": etag });
    expect(same.status).toBe(206);
    expect(await bytesOf(same)).toEqual(AUDIO.slice(0, 10));
    const changed = await audio(ids.published, creator, { Range: "bytes=0-9", "If-Range": '"an-older-version"' });
    expect(changed.status).toBe(200);
    expect(await bytesOf(changed)).toEqual(AUDIO);
  });

  it("HEAD answers the headers without a body; If-None-Match with the ETag → 304", async () => {
    const head = await audio(ids.published, creator, { Range: "bytes=0-9" }, "HEAD");
    expect(head.status).toBe(206);
    expect(head.headers.get("Content-Range")).toBe(`bytes 0-9/${SIZE}`);
    expect((await bytesOf(head)).length).toBe(0);
    const etag = head.headers.get("ETag") ?? "";
    expect((await audio(ids.published, creator, { "If-None-Match": etag })).status).toBe(304);
  });

  it("an object stored without a type plays with the row's audio type", async () => {
    const res = await audio(ids.untyped, creator, { Range: "bytes=0-3" });
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Type")).toBe("audio/wav");
    expect(await bytesOf(res)).toEqual(AUDIO.slice(0, 4));
  });
});

describe("the listening preview (issue 30, docs/decisions/0270; made on the server, 0289)", () => {
  it("is what a published track with one streams: audio/mpeg, its own length, 206 slices with its Content-Range", async () => {
    const whole = await audio(ids.withPreview, creator);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(whole.headers.get("Content-Length")).toBe(String(PREVIEW_SIZE));
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(whole.headers.get("Cache-Control")).toMatch(/^private\b/);
    expect(await bytesOf(whole)).toEqual(PREVIEW);
    const slice = await audio(ids.withPreview, creator, { Range: "bytes=100-" });
    expect(slice.status).toBe(206);
    expect(slice.headers.get("Content-Range")).toBe(`bytes 100-${PREVIEW_SIZE - 1}/${PREVIEW_SIZE}`);
    expect(slice.headers.get("Content-Length")).toBe(String(PREVIEW_SIZE - 100));
    expect(await bytesOf(slice)).toEqual(PREVIEW.slice(100));
    expect((await audio(ids.withPreview, creator, { Range: `bytes=${PREVIEW_SIZE}-` })).status).toBe(416);
  });

  it("follows the track's rules: 401 signed out, 403 pending, in review only to its partner and admins", async () => {
    expect((await audio(ids.withPreview, null)).status).toBe(401);
    expect((await audio(ids.withPreview, pending)).status).toBe(403);
    expect((await audio(ids.previewInReview, creator)).status).toBe(404);
    expect((await audio(ids.previewInReview, otherPartner)).status).toBe(404);
  });

  it("a track in review streams its master, never a preview: the admin reviews what a licence hands out (issue 40)", async () => {
    for (const user of [admin, partner]) {
      const res = await audio(ids.previewInReview, user);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("audio/wav");
      expect(await bytesOf(res)).toEqual(AUDIO);
    }
  });

  it("a public preview's signed URL points at the preview when there is one, at the original otherwise", async () => {
    const { publicTrackPreview } = await import("~/modules/music/stream.server");
    expect((await publicTrackPreview(ids.withPreview))?.audioUrl).toMatch(new RegExp(`^/media/signed/music/previews/${ids.withPreview}\\.mp3\\?`));
    expect((await publicTrackPreview(ids.published))?.audioUrl).toMatch(new RegExp(`^/media/signed/music/audio/${ids.published}\\.wav\\?`));
  });
});

describe("who may listen", () => {
  it("refuses anyone not signed in with 401 and a banned user with 401, before any byte", async () => {
    const anonymous = await audio(ids.published, null, { Range: "bytes=0-9" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("Content-Type")).toContain("application/json");
    const bannedCookie = (await signInAs(banned.id)).cookie;
    const res = await fetchApp(`/music/audio/${ids.published}`, withCookie(bannedCookie));
    expect(res.status).toBe(401);
  });

  it("refuses a user whose account is pending approval with 403", async () => {
    const res = await audio(ids.published, pending);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "Approval required" });
    expect((await fetchApp(`/music/cover/${ids.published}`, withCookie(pending.cookie))).status).toBe(403);
  });

  it("answers 404 for tracks that are not published (in review, rejected, withdrawn) and for unknown ids", async () => {
    for (const id of [ids.inReview, ids.rejected, ids.withdrawn, crypto.randomUUID(), "not-a-track"]) {
      const res = await audio(id, creator);
      expect(res.status, id).toBe(404);
      expect(await res.text()).not.toContain("RIFF");
    }
  });

  it("lets the partner who submitted a track in review play it, and admins (the review queue); not another partner", async () => {
    const own = await audio(ids.inReview, partner, { Range: "bytes=100-199" });
    expect(own.status).toBe(206);
    expect(await bytesOf(own)).toEqual(AUDIO.slice(100, 200));
    const reviewer = await audio(ids.inReview, admin);
    expect(reviewer.status).toBe(200);
    expect(await bytesOf(reviewer)).toEqual(AUDIO);
    expect((await audio(ids.inReview, otherPartner)).status).toBe(404);
  });

  it("lets the partner play their own rejected and withdrawn tracks (issue 30), and nobody else but admins", async () => {
    for (const id of [ids.rejected, ids.withdrawn]) {
      const own = await audio(id, partner, { Range: "bytes=0-9" });
      expect(own.status, id).toBe(206);
      expect(await bytesOf(own)).toEqual(AUDIO.slice(0, 10));
      expect((await fetchApp(`/music/cover/${id}`, withCookie(partner.cookie))).status, id).toBe(200);
      expect((await audio(id, admin)).status, id).toBe(200);
      for (const other of [otherPartner, creator]) {
        const res = await audio(id, other);
        expect(res.status, id).toBe(404);
        expect(await res.text()).not.toContain("RIFF");
        expect((await fetchApp(`/music/cover/${id}`, withCookie(other.cookie))).status, id).toBe(404);
      }
    }
  });
});

describe("GET /music/cover/:id", () => {
  it("serves the cover with its stored type, nosniff and private caching", async () => {
    const res = await fetchApp(`/music/cover/${ids.published}`, withCookie(creator.cookie));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Cache-Control")).toMatch(/^private\b/);
    expect(await bytesOf(res)).toEqual(COVER);
  });

  it("follows the audio's rules: 401 signed out, 404 for an unpublished track or one without a cover", async () => {
    expect((await fetchApp(`/music/cover/${ids.published}`)).status).toBe(401);
    expect((await fetchApp(`/music/cover/${ids.inReview}`, withCookie(creator.cookie))).status).toBe(404);
    expect((await fetchApp(`/music/cover/${ids.inReview}`, withCookie(partner.cookie))).status).toBe(200);
    expect((await fetchApp(`/music/cover/${ids.noCover}`, withCookie(creator.cookie))).status).toBe(404);
  });
});
