// /music/submit and /music/submissions (issue 13, music partners): files checked by their bytes
// and sizes, a message per field, nothing left behind (no R2 object, no row) after a refusal or a
// failed insert, a double click files one submission, the storage quota, the hourly limit, the
// partner-only guard, and the partner's list with licences and usage.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SUBMIT_MESSAGES as M, PARTNER_QUOTA_BYTES, SUBMISSION_MAX_BYTES, TAGS_MAX } from "~/modules/music/schema";
import { type TrackStatus, trackInsert } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, redirectTarget, withCookie } from "../helpers";
import { tinyWav } from "../platform/actions";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const png = (name = "cover.png") => new File([PNG], name, { type: "image/png" });
const jpeg = () => new File([Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1])], "cover.jpg", { type: "image/jpeg" });

/** MPEG-1 Layer III frames (128 kbps, 44.1 kHz: 417 bytes each) after an empty ID3v2 tag. */
function tinyMp3(frames = 40): File {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  const id3 = Uint8Array.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const parts: BlobPart[] = [id3];
  for (let i = 0; i < frames; i++) parts.push(frame);
  return new File(parts, "song.mp3", { type: "audio/mpeg" });
}

const FIELDS = { title: "Sunrise Drive", artist: "The Testers", genre: "Pop", mood: "Happy", bpm: "120", tags: "Summer, guitar  upbeat", rights: "on" };

type Files = { audio?: File | null; cover?: File | null };

function formOf(fields: Record<string, string>, files: Files = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const audio = files.audio === undefined ? tinyWav(3) : files.audio;
  const cover = files.cover === undefined ? png() : files.cover;
  if (audio) form.set("audio", audio);
  if (cover) form.set("cover", cover);
  return form;
}

/** The submit form posted as a page with JavaScript sends it (`.data`), or as a document. */
function submit(user: TestUser, fields: Record<string, string> = {}, files: Files = {}, variant: "data" | "page" = "data") {
  const body = formOf({ submissionKey: crypto.randomUUID(), ...FIELDS, ...fields }, files);
  return fetchApp(variant === "data" ? "/music/submit.data" : "/music/submit", withCookie(user.cookie, { method: "POST", headers: { Origin: ORIGIN }, body }));
}

/** Where a submission landed: "→/path" for a page's redirect or a `.data` request's redirect body. */
async function landed(res: Response): Promise<string> {
  if (res.status === 202) {
    // A mutation's `.data` redirect: [{…}, "redirect", "/path", "status", 302, …].
    const m = /"redirect","([^"]+)"/.exec(await res.clone().text());
    if (m) return `→${m[1]}`;
  }
  return outcome(res);
}

const objects = async () => (await env.MEDIA.list({ prefix: "music/" })).objects.length;
const rowsOf = (user: TestUser) => count("SELECT count(*) AS n FROM music_tracks WHERE submitted_by = ?", user.id);
/** A track the partner stored earlier, of `bytes` audio (its file is not in MEDIA): what the quota counts. */
const oldTrack = (user: TestUser, status: TrackStatus, bytes: number) =>
  trackInsert({
    title: "Old",
    artist: "Me",
    audioKey: `music/audio/${crypto.randomUUID()}.wav`,
    audioSize: bytes,
    status,
    submittedBy: user.id,
    publishedAt: null,
  });

let n = 0;
/** A fresh partner per test: the hourly limit and the quota are per partner. */
const partner = async () => {
  n += 1;
  return createUser("partner", { fullName: `Partner ${n}` });
};

beforeAll(async () => {
  await fetchApp("/auth");
}, 180_000);

describe("a valid submission", () => {
  it("stores both files and one row in review, with the WAV's length and a computed waveform", async () => {
    const user = await partner();
    const before = await objects();
    const res = await submit(user, {}, {}, "page");
    expect(await redirectTarget(res)).toBe("/music/submissions");
    const row = await env.DB.prepare(
      "SELECT status, title, genre, mood, bpm, tags, duration_seconds, audio_size, cover_size, audio_content_type, peaks, audio_key, cover_key FROM music_tracks WHERE submitted_by = ?",
    )
      .bind(user.id)
      .first<Record<string, string | number>>();
    expect(row).toMatchObject({ status: "in_review", title: "Sunrise Drive", genre: "Pop", mood: "Happy", bpm: 120, tags: "summer guitar upbeat" });
    expect(row?.duration_seconds).toBe(3);
    expect(row?.audio_content_type).toBe("audio/wav");
    expect(row?.audio_size).toBe(44 + 3 * 8000);
    expect(row?.cover_size).toBe(PNG.length);
    expect(JSON.parse(String(row?.peaks))).toHaveLength(256);
    expect(await objects()).toBe(before + 2);
    const audio = await env.MEDIA.head(String(row?.audio_key));
    expect(audio?.httpMetadata?.contentType).toBe("audio/wav");
    expect((await env.MEDIA.head(String(row?.cover_key)))?.httpMetadata?.contentType).toBe("image/png");
  });

  it("accepts an MP3 (ID3 + frames) with the browser's length and peaks, and a JPEG cover", async () => {
    const user = await partner();
    const peaks = JSON.stringify(Array.from({ length: 256 }, (_, i) => i % 256));
    const res = await submit(user, { durationSeconds: "1.04", peaks }, { audio: tinyMp3(), cover: jpeg() });
    expect(await landed(res)).toBe("→/music/submissions");
    const row = await env.DB.prepare("SELECT audio_content_type, duration_seconds, peaks FROM music_tracks WHERE submitted_by = ?")
      .bind(user.id)
      .first<{ audio_content_type: string; duration_seconds: number; peaks: string }>();
    expect(row).toMatchObject({ audio_content_type: "audio/mpeg", duration_seconds: 1, peaks });
  });
});

describe("content checks: refused, and nothing left behind", () => {
  async function refused(user: TestUser, fields: Record<string, string>, files: Files, expected: string[]) {
    const before = await objects();
    const res = await submit(user, fields, files);
    expect(res.status).toBe(400);
    const text = await res.text();
    for (const message of expected) expect(text, message).toContain(message);
    expect(await objects(), "no object stored").toBe(before);
    expect(await rowsOf(user), "no row").toBe(0);
    return text;
  }

  it("refuses a .mp3 name with PNG bytes, and a cover that is audio", async () => {
    const user = await partner();
    await refused(user, {}, { audio: new File([PNG], "song.mp3", { type: "audio/mpeg" }) }, [M.audioType]);
    await refused(user, {}, { cover: tinyWav(1, "cover.png") }, [M.coverType]);
    await refused(user, {}, { audio: new File(["ID3 just text, not music"], "a.mp3", { type: "audio/mpeg" }) }, [M.audioType]);
  });

  it("refuses oversize audio and cover by their sizes", async () => {
    const user = await partner();
    const big = new Uint8Array(50 * 1024 * 1024 + 1);
    big.set(new Uint8Array(await tinyWav(1).arrayBuffer()));
    await refused(user, {}, { audio: new File([big], "big.wav", { type: "audio/wav" }) }, [M.audioSize]);
    const bigCover = new Uint8Array(5 * 1024 * 1024 + 1);
    bigCover.set(PNG);
    await refused(user, {}, { cover: new File([bigCover], "big.png", { type: "image/png" }) }, [M.coverSize]);
  });

  it("refuses a body over the cap before reading it", async () => {
    const user = await partner();
    const huge = new Uint8Array(SUBMISSION_MAX_BYTES + 1024 * 1024);
    await refused(user, {}, { audio: new File([huge], "huge.wav"), cover: png() }, [M.tooLarge]);
  });

  it("says what is wrong with each field at once", async () => {
    const user = await partner();
    const text = await refused(user, { title: " ", artist: "", genre: "Polka", mood: "", bpm: "", tags: "", rights: "" }, { audio: null, cover: null }, [
      M.audioMissing,
      M.coverMissing,
      "Please enter the track's title.",
      "Please enter the artist's name.",
      "Please choose a genre from the list.",
      "Please choose a mood from the list.",
      "Please enter the BPM.",
      "Please confirm that you own or control the rights to this track.",
    ]);
    expect(text).toContain('"audio"');
    expect(text).toContain('"rights"');
  });

  it.each([
    ["BPM below 40", { bpm: "39" }, "BPM must be a whole number from 40 to 250."],
    ["BPM above 250", { bpm: "251" }, "BPM must be a whole number from 40 to 250."],
    ["BPM not whole", { bpm: "120.5" }, "BPM must be a whole number from 40 to 250."],
    ["too many tags", { tags: Array.from({ length: TAGS_MAX + 1 }, (_, i) => `t${i}`).join(",") }, `Use at most ${TAGS_MAX} tags`],
    ["peaks of the wrong shape", { peaks: "[1,2,3]" }, "The waveform could not be read."],
    ["peaks out of range", { peaks: JSON.stringify(Array(256).fill(300)) }, "The waveform could not be read."],
    ["a WAV whose browser length disagrees with its header", { durationSeconds: "90" }, M.audioLength],
    ["a broken one-time key", { submissionKey: "x" }, "Please reload the page and try again."],
  ])("refuses %s", async (_name, fields, message) => {
    const user = await partner();
    await refused(user, fields, {}, [message]);
  });

  it("deletes the stored files when the insert fails (a forced D1 failure)", async () => {
    const user = await partner();
    await env.DB.prepare(
      "CREATE TRIGGER IF NOT EXISTS test_fail_music_insert BEFORE INSERT ON music_tracks WHEN NEW.title = 'FAIL-D1' BEGIN SELECT RAISE(ABORT, 'forced failure'); END",
    ).run();
    try {
      const before = await objects();
      const res = await submit(user, { title: "FAIL-D1" }, {}, "page");
      expect(res.status).toBe(500);
      expect(await objects(), "no orphan object").toBe(before);
      expect(await rowsOf(user)).toBe(0);
    } finally {
      await env.DB.prepare("DROP TRIGGER IF EXISTS test_fail_music_insert").run();
    }
  });
});

describe("one submission per form", () => {
  it("files one row for a double click (the same key posted twice at once), and its files once", async () => {
    const user = await partner();
    const before = await objects();
    const key = crypto.randomUUID();
    const results = await Promise.all([submit(user, { submissionKey: key }), submit(user, { submissionKey: key }), submit(user, { submissionKey: key })]);
    for (const res of results) expect(await landed(res)).toBe("→/music/submissions");
    expect(await rowsOf(user)).toBe(1);
    expect(await objects()).toBe(before + 2);
    // And again later (a resubmitted page): still one.
    expect(await landed(await submit(user, { submissionKey: key }))).toBe("→/music/submissions");
    expect(await rowsOf(user)).toBe(1);
  });
});

describe("limits", () => {
  it("refuses a submission over the partner's storage quota with a clear message, storing nothing", async () => {
    const user = await partner();
    // Tracks in review and published count; rejected and withdrawn do not.
    await env.DB.batch([
      oldTrack(user, "published", PARTNER_QUOTA_BYTES - 1000),
      oldTrack(user, "rejected", PARTNER_QUOTA_BYTES),
      oldTrack(user, "withdrawn", PARTNER_QUOTA_BYTES),
    ]);
    const before = await objects();
    const res = await submit(user);
    expect(res.status).toBe(409);
    const text = await res.text();
    expect(text).toContain("Storage full");
    expect(text).toContain(`of your ${PARTNER_QUOTA_BYTES / 1024 / 1024} MB`);
    expect(await objects()).toBe(before);
    expect(await count("SELECT count(*) AS n FROM music_tracks WHERE submitted_by = ? AND status = 'in_review'", user.id)).toBe(0);
    // Withdrawing frees space: the rejected and withdrawn ones never counted.
    await env.DB.prepare("UPDATE music_tracks SET status = 'withdrawn' WHERE submitted_by = ? AND status = 'published'").bind(user.id).run();
    expect(await landed(await submit(user))).toBe("→/music/submissions");
  });

  it("limits submissions per partner per hour (429 with Retry-After), a double click not counted twice", async () => {
    const user = await partner();
    for (let i = 0; i < 10; i++) expect(await landed(await submit(user)), `submission ${i + 1}`).toBe("→/music/submissions");
    const before = await objects();
    const res = await submit(user);
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBeTruthy();
    expect(await res.text()).toContain(M.rateLimited);
    expect(await objects()).toBe(before);
    expect(await rowsOf(user)).toBe(10);
  });
});

describe("partners only", () => {
  it.each(["creator", "admin", "pending", "agency"] as const)("refuses a %s: nothing stored", async (kind) => {
    const user = await createUser(kind);
    const before = await objects();
    const res = await submit(user, {}, {}, "page");
    expect(await outcome(res)).toBe(kind === "pending" ? "→/pending-approval" : "→/dashboard");
    expect(await objects()).toBe(before);
    expect(await count("SELECT count(*) AS n FROM music_tracks WHERE submitted_by = ?", user.id)).toBe(0);
  });
});

describe("the form says which files are required (issue 42 §5)", () => {
  it("labels the cover and the audio as required on a first submission", async () => {
    const user = await partner();
    const html = (await (await fetchApp("/music/submit", withCookie(user.cookie))).text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Cover image (required: JPEG, PNG or WebP, up to 5 MB)");
    expect(html).toContain("Audio (required: MP3 or WAV, up to 50 MB)");
  });
});

describe("/music/submissions", () => {
  it("lists the partner's own tracks with status, the reviewer's note, licences and distinct creators, and usage per week", async () => {
    const user = await partner();
    const other = await partner();
    const ids = { published: crypto.randomUUID(), rejected: crypto.randomUUID(), theirs: crypto.randomUUID() };
    const insert = (id: string, title: string, status: TrackStatus, by: string, reviewNote: string | null = null) =>
      trackInsert({ id, title, artist: "Me", audioKey: `music/audio/${id}.wav`, status, submittedBy: by, reviewNote });
    const creators = await Promise.all([createUser("creator"), createUser("creator")]);
    await env.DB.batch([
      insert(ids.published, "Used Everywhere", "published", user.id),
      insert(ids.rejected, "Not This One", "rejected", user.id, "The mix clips at 1:02."),
      insert(ids.theirs, "Someone Else's", "published", other.id),
      ...creators.map((c, i) =>
        env.DB.prepare("INSERT INTO music_licences (id, code, track_id, user_id) VALUES (?, ?, ?, ?)").bind(
          crypto.randomUUID(),
          `SB-TEST-${n}-${i}`,
          ids.published,
          c.id,
        ),
      ),
    ]);
    const res = await fetchApp("/music/submissions", withCookie(user.cookie));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Used Everywhere");
    expect(html).toContain("Not This One");
    expect(html).toContain("The mix clips at 1:02.");
    expect(html).not.toContain("Someone Else");
    expect(html).toMatch(/2 licences<\/strong> · <!-- -->2 creators|2 licences<\/strong> · 2 creators/);
    expect(html).toContain("Licences per week");
    // recharts is not part of the page's first load.
    expect(html).not.toMatch(/recharts/i);
  });
});
