// Licences (issue 13): 'Use this track' records one licence per creator and track (sequential and
// parallel clicks alike), snapshots the creator's linked and verified channels, bumps the track's
// licence_count once; the file downloads with its proper name; the certificate is its owner's
// (admins may read it); the public /licences/:code page verifies it without signing in, says when
// a withdrawn track limits it, 404s unknown codes and is rate-limited. docs/decisions/0115-0119.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { formatLicenceDate, LICENCE_CODE_PATTERN } from "~/modules/music/licence-code";
import { takeLicence as takeLicenceDirect } from "~/modules/music/music.server";
import { consume, LICENCE_LOOKUP_LIMIT } from "~/platform/rate-limit.server";
import { type TrackStatus, trackInsert } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, outcome, postForm, withCookie } from "../helpers";

const AUDIO = Uint8Array.from({ length: 2048 }, (_, i) => (i * 13 + 5) % 256);

let creator: TestUser;
let admin: TestUser;
let other: TestUser;

async function insertTrack(opts: { status?: TrackStatus; title?: string; artist?: string; contentType?: string } = {}): Promise<string> {
  const id = crypto.randomUUID();
  const status = opts.status ?? "published";
  const audioKey = `music/audio/${id}.wav`;
  await env.MEDIA.put(audioKey, AUDIO, { httpMetadata: { contentType: opts.contentType ?? "audio/wav" } });
  await trackInsert({
    id,
    title: opts.title ?? `Licence Track ${id.slice(0, 6)}`,
    artist: opts.artist ?? "Licence Artist",
    genre: "Pop",
    mood: "Happy",
    bpm: 120,
    durationSeconds: 30,
    audioKey,
    audioContentType: opts.contentType ?? "audio/wav",
    audioSize: AUDIO.length,
    peaks: "[1,2,3]",
    status,
    publishedAt: status === "published" || status === "withdrawn" ? "2026-01-05T10:00:00.000Z" : null,
    withdrawnAt: status === "withdrawn" ? "2026-02-01T09:00:00.000Z" : null,
  }).run();
  return id;
}

/** A creator with a linked YouTube channel, a verified manual channel and a pending one (not covered). */
async function creatorWithChannels(name = "Casey Creator"): Promise<TestUser> {
  const user = await createUser("creator", { fullName: name });
  await env.DB.batch([
    env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Casey Shorts')").bind(
      crypto.randomUUID(),
      user.id,
      `UC${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`,
    ),
    env.DB.prepare(
      "INSERT INTO manual_channel_submissions (id, user_id, creator_id, channel_name, channel_url, status) VALUES (?, ?, 'X', 'Casey on TikTok', 'https://www.tiktok.com/@casey', 'verified')",
    ).bind(crypto.randomUUID(), user.id),
    env.DB.prepare(
      "INSERT INTO manual_channel_submissions (id, user_id, creator_id, channel_name, status) VALUES (?, ?, 'X', 'Pending Channel', 'pending')",
    ).bind(crypto.randomUUID(), user.id),
  ]);
  return user;
}

const use = (user: TestUser | null, trackId: string) => postForm("/music/licences", { intent: "use", trackId }, withCookie(user?.cookie ?? null));
const licenceRow = (userId: string, trackId: string) =>
  env.DB.prepare("SELECT id, code FROM music_licences WHERE user_id = ? AND track_id = ?").bind(userId, trackId).first<{ id: string; code: string }>();
const licenceCount = async (trackId: string) =>
  (await env.DB.prepare("SELECT licence_count AS n FROM music_tracks WHERE id = ?").bind(trackId).first<{ n: number }>())?.n;

/** A licence taken through the route; returns its code. */
async function takeLicence(user: TestUser, trackId: string): Promise<string> {
  const res = await use(user, trackId);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  const row = await licenceRow(user.id, trackId);
  expect(row).toBeTruthy();
  return row!.code;
}

let ipCounter = 0;
const freshIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;
const publicPage = (code: string, ip = freshIp(), init: RequestInit = {}) =>
  fetchApp(`/licences/${code}`, { ...init, headers: { "CF-Connecting-IP": ip, ...(init.headers as Record<string, string>) } });

beforeAll(async () => {
  [creator, admin, other] = await Promise.all([creatorWithChannels(), createUser("admin"), creatorWithChannels("Other Creator")]);
  await fetchApp("/auth"); // the first request compiles the app
}, 180_000);

describe("'Use this track' (POST /music/licences, intent=use)", () => {
  it("records one licence with a readable code, the channel snapshot and licence_count 1; a second click returns the same licence", async () => {
    const trackId = await insertTrack();
    const res = await use(creator, trackId);
    expect(res.status).toBe(200);
    const html = await res.text();
    const row = await licenceRow(creator.id, trackId);
    expect(row?.code).toMatch(LICENCE_CODE_PATTERN);
    expect(html).toContain(row!.code);
    expect(html).toContain("Licence recorded");
    expect(await licenceCount(trackId)).toBe(1);
    const channels = await env.DB.prepare("SELECT channel_kind, title, url FROM music_licence_channels WHERE licence_id = ? ORDER BY channel_kind")
      .bind(row!.id)
      .all<{ channel_kind: string; title: string; url: string | null }>();
    expect(channels.results.map((c) => [c.channel_kind, c.title])).toEqual([
      ["manual", "Casey on TikTok"],
      ["youtube", "Casey Shorts"],
    ]);
    expect(channels.results.find((c) => c.channel_kind === "youtube")?.url).toMatch(/^https:\/\/www\.youtube\.com\/channel\/UC/);

    const again = await use(creator, trackId);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("You already have this licence");
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", trackId)).toBe(1);
    expect((await licenceRow(creator.id, trackId))?.code).toBe(row!.code);
    expect(await licenceCount(trackId)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM music_licence_channels WHERE licence_id = ?", row!.id)).toBe(2);
  });

  it("5 parallel clicks record one licence and count it once", async () => {
    const trackId = await insertTrack();
    const answers = await Promise.all(Array.from({ length: 5 }, () => use(creator, trackId)));
    for (const a of answers) {
      expect(a.status).toBe(200);
      await a.arrayBuffer();
    }
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ? AND user_id = ?", trackId, creator.id)).toBe(1);
    expect(await licenceCount(trackId)).toBe(1);
    const row = await licenceRow(creator.id, trackId);
    expect(await count("SELECT count(*) AS n FROM music_licence_channels WHERE licence_id = ?", row!.id)).toBe(2);
    // Another creator's licence on the same track is a second one: the count follows.
    await takeLicence(other, trackId);
    expect(await licenceCount(trackId)).toBe(2);
  });

  it("the batch itself counts once: 5 concurrent calls that all pass the 'already licensed?' read record one row, +1 and one snapshot", async () => {
    const trackId = await insertTrack();
    const actor: Actor = {
      id: creator.id,
      email: creator.email,
      isAdmin: false,
      approvalStatus: "approved",
      isBanned: false,
      isMusicPartner: false,
      hasActiveAgency: false,
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => takeLicenceDirect(actor, trackId)));
    expect(new Set(results.map((r) => r.licence.code)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", trackId)).toBe(1);
    expect(await licenceCount(trackId)).toBe(1);
    const row = await licenceRow(creator.id, trackId);
    expect(await count("SELECT count(*) AS n FROM music_licence_channels WHERE licence_id = ?", row!.id)).toBe(2);
    expect(await count("SELECT count(*) AS n FROM music_licence_channels c LEFT JOIN music_licences l ON l.id = c.licence_id WHERE l.id IS NULL")).toBe(0);
  });

  it("without a linked or verified channel: 'Link a channel first' pointing to /channels, and no licence", async () => {
    const trackId = await insertTrack();
    const bare = await createUser("creator");
    // A submission still pending verification does not count.
    await env.DB.prepare("INSERT INTO manual_channel_submissions (id, user_id, creator_id, channel_name, status) VALUES (?, ?, 'X', 'Waiting', 'pending')")
      .bind(crypto.randomUUID(), bare.id)
      .run();
    const res = await use(bare, trackId);
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("Link a channel first");
    expect(html).toContain('href="/channels"');
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", trackId)).toBe(0);
    expect(await licenceCount(trackId)).toBe(0);
  });

  it.each(["pending", "rejected"] as const)("a %s user is sent to /pending-approval, audited, and nothing is recorded", async (kind) => {
    const trackId = await insertTrack();
    const user = await createUser(kind);
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Pending Shorts')")
      .bind(crypto.randomUUID(), user.id, `UC${user.id.slice(0, 8)}`)
      .run();
    const res = await use(user, trackId);
    expect(await outcome(res)).toBe("→/pending-approval");
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", trackId)).toBe(0);
    const audit = await env.DB.prepare(
      "SELECT severity, path, details FROM security_audit_log WHERE user_id = ? AND event_type = 'unauthorized_access_attempt'",
    )
      .bind(user.id)
      .first<{ severity: string; path: string; details: string }>();
    expect(audit?.severity).toBe("high");
    expect(audit?.path).toBe("/music/licences");
    expect(JSON.parse(audit!.details)).toMatchObject({ path: "/music/licences", user_id: user.id, approval_status: kind });
  });

  it("signed out: to /auth; nothing recorded", async () => {
    const trackId = await insertTrack();
    expect(await outcome(await use(null, trackId))).toBe("→/auth");
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", trackId)).toBe(0);
  });

  it.each(["in_review", "rejected", "withdrawn"] as const)("refuses a %s track with 404 (never revealed) and records nothing", async (status) => {
    const trackId = await insertTrack({ status });
    const res = await use(creator, trackId);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", trackId)).toBe(0);
    expect(await licenceCount(trackId)).toBe(0);
  });

  it("an unknown track is 404, a malformed id 400", async () => {
    expect((await use(creator, crypto.randomUUID())).status).toBe(404);
    expect((await use(creator, "not-a-uuid")).status).toBe(400);
    expect((await postForm("/music/licences", { intent: "nope", trackId: crypto.randomUUID() }, withCookie(creator.cookie))).status).toBe(400);
  });

  it("'My licences' lists the creator's licences only", async () => {
    const trackId = await insertTrack({ title: "Listed Song" });
    const code = await takeLicence(creator, trackId);
    const mine = await fetchApp("/music/licences", withCookie(creator.cookie));
    expect(mine.status).toBe(200);
    const html = await mine.text();
    expect(html).toContain("Listed Song");
    expect(html).toContain(code);
    const theirs = await (await fetchApp("/music/licences", withCookie(other.cookie))).text();
    expect(theirs).not.toContain(code);
  });
});

describe("GET /music/licences/:code/download", () => {
  it("sends the file as an attachment with its proper name (ASCII fallback and RFC 5987 filename*), to its owner", async () => {
    const trackId = await insertTrack({ title: "Café/Night: “Drive”", artist: "Zoë Band" });
    const code = await takeLicence(creator, trackId);
    const res = await fetchApp(`/music/licences/${code}/download`, withCookie(creator.cookie));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("audio/wav");
    expect(res.headers.get("Content-Length")).toBe(String(AUDIO.length));
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const disposition = res.headers.get("Content-Disposition") ?? "";
    const name = `Zoë Band - Café Night “Drive” (Shortbeat licence ${code}).wav`;
    expect(disposition.startsWith("attachment; ")).toBe(true);
    expect(disposition).toContain(`filename="Zoe Band - Cafe Night _Drive_ (Shortbeat licence ${code}).wav"`);
    const star = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? "";
    expect(decodeURIComponent(star)).toBe(name);
    expect(star).not.toMatch(/[ ()'*]/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(AUDIO);
  });

  it("accepts the code in any case without dashes; an MP3 gets .mp3", async () => {
    const trackId = await insertTrack({ title: "Plain", artist: "Band", contentType: "audio/mpeg" });
    const code = await takeLicence(creator, trackId);
    const res = await fetchApp(`/music/licences/${code.toLowerCase().replaceAll("-", "")}/download`, withCookie(creator.cookie));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(res.headers.get("Content-Disposition")).toContain(`filename="Band - Plain (Shortbeat licence ${code}).mp3"`);
    await res.arrayBuffer();
  });

  it("is 404 for another creator and an admin, 401 signed out, 409 once the track is withdrawn", async () => {
    const trackId = await insertTrack();
    const code = await takeLicence(creator, trackId);
    for (const user of [other, admin]) {
      const res = await fetchApp(`/music/licences/${code}/download`, withCookie(user.cookie));
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }
    expect((await fetchApp(`/music/licences/${code}/download`)).status).toBe(401);
    await env.DB.prepare("UPDATE music_tracks SET status = 'withdrawn', withdrawn_at = '2026-03-01T00:00:00.000Z' WHERE id = ?").bind(trackId).run();
    const gone = await fetchApp(`/music/licences/${code}/download`, withCookie(creator.cookie));
    expect(gone.status).toBe(409);
    expect(((await gone.json()) as { error: string }).error).toContain("withdrawn on 2026-03-01");
  });
});

describe("the certificate (/music/licences/:code)", () => {
  it("shows its owner the track, artist, creator, channels, date, code and terms; printable", async () => {
    const trackId = await insertTrack({ title: "Certified Tune", artist: "Cert Artist" });
    const code = await takeLicence(creator, trackId);
    const res = await fetchApp(`/music/licences/${code}`, withCookie(creator.cookie));
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of [code, "Certified Tune", "Cert Artist", "Casey Creator", "Casey Shorts", "Casey on TikTok", "70%", "Print", "@media print"]) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain(`/licences/${code}`);
  });

  it("is the not-found page for another creator (and an unknown code); an admin may read it", async () => {
    const trackId = await insertTrack({ title: "Private Tune" });
    const code = await takeLicence(creator, trackId);
    const theirs = await fetchApp(`/music/licences/${code}`, withCookie(other.cookie));
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain("Private Tune");
    expect((await fetchApp("/music/licences/SB-0000-0000-0000", withCookie(creator.cookie))).status).toBe(404);
    const asAdmin = await fetchApp(`/music/licences/${code}`, withCookie(admin.cookie));
    expect(asAdmin.status).toBe(200);
    const html = await asAdmin.text();
    expect(html).toContain("Private Tune");
    expect(html).not.toContain("Download file");
    expect(await outcome(await fetchApp(`/music/licences/${code}`))).toBe("→/auth");
  });
});

describe("the certificate as a PDF (/music/licences/:code/certificate.pdf, issue 42)", () => {
  it("is a one-page PDF attachment with the code, track and creator, for its owner and admins; 404 for others, 401 signed out", async () => {
    const trackId = await insertTrack({ title: "Paper Tune", artist: "Cert Artist" });
    const code = await takeLicence(creator, trackId);
    const certificate = await (await fetchApp(`/music/licences/${code}`, withCookie(creator.cookie))).text();
    expect(certificate).toContain(`href="/music/licences/${code}/certificate.pdf"`);
    expect(certificate).toContain("Download PDF");

    const res = await fetchApp(`/music/licences/${code}/certificate.pdf`, withCookie(creator.cookie));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Shortbeat licence ${code}.pdf"; filename*=UTF-8''Shortbeat%20licence%20${code}.pdf`,
    );
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder("latin1").decode(bytes);
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    for (const fact of [code, "Paper Tune", "Cert Artist", "Casey Creator", "Casey Shorts", "Music licence certificate", `/licences/${code}`]) {
      expect(text, fact).toContain(fact);
    }
    // The cross-reference table points at each object (a reader opens it without repair).
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xref, xref + 4)).toBe("xref");
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBeGreaterThan(7);
    for (const [i, offset] of offsets.entries()) expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);

    expect((await fetchApp(`/music/licences/${code}/certificate.pdf`, withCookie(admin.cookie))).status).toBe(200);
    const theirs = await fetchApp(`/music/licences/${code}/certificate.pdf`, withCookie(other.cookie));
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain("Paper Tune");
    expect((await fetchApp(`/music/licences/${code}/certificate.pdf`)).status).toBe(401);
  });
});

describe("the public verification page (/licences/:code)", () => {
  it("shows anyone, signed out, that the licence is valid: track, artist, channels, since when; no e-mail; not cached", async () => {
    const trackId = await insertTrack({ title: "Public Tune", artist: "Public Artist" });
    const code = await takeLicence(creator, trackId);
    const res = await publicPage(code);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const html = await res.text();
    for (const text of ["Valid licence", "Public Tune", "Public Artist", "Casey Creator", "Casey Shorts", "Casey on TikTok", code])
      expect(html, text).toContain(text);
    expect(html).not.toContain(creator.email);
    expect(html).not.toContain("tiktok.com/@casey");
    // Any case, dashes optional.
    expect((await publicPage(code.toLowerCase().replaceAll("-", ""))).status).toBe(200);
  });

  it("a withdrawn track's licence stays valid for videos published before the withdrawal, and says so", async () => {
    const trackId = await insertTrack({ title: "Gone Tune" });
    const code = await takeLicence(creator, trackId);
    const withdrawnAt = new Date(Date.now() + 60_000).toISOString();
    await env.DB.prepare("UPDATE music_tracks SET status = 'withdrawn', withdrawn_at = ? WHERE id = ?").bind(withdrawnAt, trackId).run();
    const res = await publicPage(code);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`Valid for videos published before ${formatLicenceDate(withdrawnAt)}`);
    expect(formatLicenceDate("2026-04-15T12:00:00.000Z")).toBe("15 April 2026");
    expect(html).not.toContain("Valid licence");
  });

  it.each([
    "SB-0000-0000-0000",
    "nonsense",
    "SB-UUUU-UUUU-UUUU",
  ])("answers 404 'This is not a valid Shortbeat licence' for %s, with support linked (issue 42)", async (code) => {
    const res = await publicPage(code);
    expect(res.status).toBe(404);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("This is not a valid Shortbeat licence");
    expect(html).not.toContain("Page not found");
    expect(html).toContain(`<a href="mailto:${env.EMAIL_REPLY_TO}?subject=${encodeURIComponent(`Licence ${code}`)}"`);
    expect(html).toMatch(/<a href="mailto:[^"]+"[^>]*>Contact Shortbeat support<\/a>/);
  });

  it("links 'Contact Shortbeat support' to the support address on a valid licence (issue 42)", async () => {
    const code = await takeLicence(creator, await insertTrack());
    const html = await (await publicPage(code)).text();
    expect(html).toMatch(new RegExp(`<a href="mailto:${env.EMAIL_REPLY_TO}\\?subject=Licence%20${code}"[^>]*>Contact Shortbeat support</a>`));
  });

  it("is rate-limited per address: 429 'Rate limit exceeded' with Retry-After, other addresses unaffected", async () => {
    const trackId = await insertTrack();
    const code = await takeLicence(creator, trackId);
    const ip = "192.0.2.77";
    // All but one lookup of the window used (counted exactly, docs/decisions/0291).
    for (let i = 0; i < LICENCE_LOOKUP_LIMIT.maxAttempts - 1; i++) await consume("licence-lookup", `ip:${ip}`, LICENCE_LOOKUP_LIMIT);
    const last = await publicPage(code, ip);
    expect(last.status).toBe(200);
    await last.arrayBuffer();
    const refused = await publicPage(code, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(html).toContain("Rate limit exceeded");
    expect(html).toContain("Please wait before trying again.");
    // Unknown codes count too, and another address is not limited.
    expect((await publicPage("SB-0000-0000-0000", ip)).status).toBe(429);
    expect((await publicPage(code)).status).toBe(200);
  });
});

describe("the creator picks the channels a licence covers (issue 30 §2, decision 0248)", () => {
  const takeFor = (user: TestUser, trackId: string, channels: string[]) => {
    const body = new URLSearchParams({ intent: "use", trackId });
    for (const c of channels) body.append("channels", c);
    return fetchApp("/music/licences", {
      method: "POST",
      body,
      headers: { Cookie: user.cookie, Origin: "https://shortbeat.test", "Content-Type": "application/x-www-form-urlencoded" },
    });
  };
  const choiceOf = async (user: TestUser, title: string) => {
    const yt = await env.DB.prepare("SELECT channel_id AS ref FROM youtube_channels WHERE user_id = ? AND channel_title = ?")
      .bind(user.id, title)
      .first<{ ref: string }>();
    if (yt) return `youtube:${yt.ref}`;
    const manual = await env.DB.prepare("SELECT id AS ref FROM manual_channel_submissions WHERE user_id = ? AND channel_name = ?")
      .bind(user.id, title)
      .first<{ ref: string }>();
    return `manual:${manual?.ref}`;
  };
  const titlesOf = async (licenceId: string) =>
    (await env.DB.prepare("SELECT title FROM music_licence_channels WHERE licence_id = ? ORDER BY title").bind(licenceId).all<{ title: string }>()).results.map(
      (r) => r.title,
    );

  it("covers only the picked channel; the list, certificate and public page name it; later picks add, never remove", async () => {
    const user = await creatorWithChannels("Pia Picker");
    const trackId = await insertTrack({ title: "Picked Track" });
    const tiktok = await choiceOf(user, "Casey on TikTok");
    const res = await takeFor(user, trackId, [tiktok]);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const row = await licenceRow(user.id, trackId);
    expect(await titlesOf(row!.id)).toEqual(["Casey on TikTok"]);
    const list = (await (await fetchApp("/music/licences", withCookie(user.cookie))).text()).replaceAll("<!-- -->", "");
    expect(list).toContain("For Casey on TikTok");
    expect(list).not.toContain("Casey Shorts");
    const certificate = await (await fetchApp(`/music/licences/${row!.code}`, withCookie(user.cookie))).text();
    expect(certificate).toContain("Casey on TikTok");
    expect(certificate).not.toContain("Casey Shorts");
    const verification = await (await publicPage(row!.code)).text();
    expect(verification).toContain("Casey on TikTok");
    expect(verification).not.toContain("Casey Shorts");
    // Picking the YouTube channel later (twice at once) adds it once; the TikTok one stays.
    const youtube = await choiceOf(user, "Casey Shorts");
    const both = await Promise.all([takeFor(user, trackId, [youtube]), takeFor(user, trackId, [youtube])]);
    for (const r of both) {
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
    expect(await titlesOf(row!.id)).toEqual(["Casey Shorts", "Casey on TikTok"]);
    expect(await count("SELECT count(*) AS n FROM music_licences WHERE track_id = ?", trackId)).toBe(1);
  });

  it("refuses a channel that is not the creator's (another's, a pending one, made up): a message, nothing stored", async () => {
    const user = await creatorWithChannels("Rex Refused");
    const trackId = await insertTrack();
    const pending = await choiceOf(user, "Pending Channel");
    for (const bad of [await choiceOf(other, "Casey Shorts"), pending, "youtube:UCmadeup", "nonsense"]) {
      const res = await takeFor(user, trackId, [bad]);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Choose among your linked channels.");
    }
    expect(await licenceRow(user.id, trackId)).toBeNull();
    expect(await licenceCount(trackId)).toBe(0);
  });

  it("the library offers the picker when the creator has more than one channel", async () => {
    const html = await (await fetchApp("/music", withCookie(creator.cookie))).text();
    // The loader's data (in the page's stream) carries the channels to pick from.
    expect(html).toMatch(/manual:[0-9a-f-]{36}/);
    expect(html).toContain("Casey on TikTok");
  });
});
