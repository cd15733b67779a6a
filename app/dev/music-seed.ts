// The demo music catalogue: 45 published tracks across every genre and mood, with audio
// synthesized on the spot (short mono WAVs), peaks computed from that audio, cover images drawn
// in code (PNG), tags and BPMs; a partner's submission in review and one rejected with a note; and
// licences of the demo creator covering their channels. Idempotent and quick on a second run: a
// track whose row, peaks, audio and cover are all there is not synthesized again.
// docs/decisions/0102-music-seed.md.
import { expectAt } from "../lib/arrays.ts";
import { GENRES, MOODS } from "../modules/music/library.ts";
import { newLicenceCode } from "../modules/music/licence-code.ts";
import { encodePng, hsl } from "./png.ts";
import { pattern, pcmOf, peaksOf, synthesize, type Note } from "./wav.ts";

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

type Status = "published" | "in_review" | "rejected";

export type SeedTrack = {
  id: string;
  title: string;
  artist: string;
  genre: (typeof GENRES)[number];
  mood: (typeof MOODS)[number];
  bpm: number;
  tags: string;
  status: Status;
  /** Submitted by the demo music partner (else a house track). */
  byPartner: boolean;
  reviewNote?: string;
  /** Days before SEED_EPOCH it was published (or submitted). */
  age: number;
  melody: Note[];
  bass: Note[];
  /** The notes are one cycle, played this many times (see synthesize). */
  repeat?: number;
  sampleRate?: number;
};

// The seed's dates count back from yesterday noon (UTC) of the day it runs, so the partner's
// "licences per week" chart and the recent dates have something to show whenever the demo is
// seeded (a fixed date drifted out of the chart's 12 weeks). Rows are INSERT OR IGNORE: a second
// run changes no date.
const DAY_MS = 86_400_000;
const SEED_EPOCH = Math.floor(Date.now() / DAY_MS) * DAY_MS - 12 * 3_600_000;
const PARTNER_ARTIST = "Morgan & The Loops";

// The five tracks every earlier seed had (same ids, same notes, so their audio stays the same).
const CLASSICS: SeedTrack[] = [
  {
    id: uuid(101),
    title: "Sunrise Loop",
    artist: PARTNER_ARTIST,
    genre: "Pop",
    mood: "Happy",
    bpm: 120,
    tags: "morning bright loop upbeat",
    status: "published",
    byPartner: true,
    age: 90,
    melody: pattern([72, 76, 79, 76, 74, 77, 81, 77], 0.5, 4),
    bass: pattern([48, 48, 53, 53, 55, 55, 48, 48], 2, 1),
  },
  {
    id: uuid(102),
    title: "Night Drive",
    artist: PARTNER_ARTIST,
    genre: "Synthwave",
    mood: "Chill",
    bpm: 96,
    tags: "night driving retro city",
    status: "published",
    byPartner: true,
    age: 88,
    melody: pattern([69, null, 72, 76, 74, null, 72, 69], 0.5, 3),
    bass: pattern([45, 45, 41, 43], 3, 1),
  },
  {
    id: uuid(103),
    title: "Hype Check",
    artist: "Shortbeat Originals",
    genre: "Hip-Hop",
    mood: "Energetic",
    bpm: 140,
    tags: "hype trap beat bold",
    status: "published",
    byPartner: true,
    age: 86,
    melody: pattern([67, 67, 70, 72, null, 72, 70, 67], 0.5, 5),
    bass: pattern([43, null, 43, 46], 1, 5),
  },
  {
    id: uuid(104),
    title: "Paper Planes",
    artist: "Shortbeat Originals",
    genre: "Acoustic",
    mood: "Uplifting",
    bpm: 108,
    tags: "travel guitar hopeful",
    status: "published",
    byPartner: true,
    age: 84,
    melody: pattern([64, 67, 71, 72, 71, 67], 0.5, 4),
    bass: pattern([40, 43, 45, 43], 3, 1),
  },
  {
    id: uuid(105),
    title: "Glitch Garden",
    artist: "Shortbeat Originals",
    genre: "Electronic",
    mood: "Quirky",
    bpm: 128,
    tags: "glitch playful tech",
    status: "published",
    byPartner: true,
    age: 82,
    melody: pattern([84, 79, 76, 79, 83, 79, 74, 79], 0.25, 8),
    bass: pattern([36, 36, 43, 41], 2, 2),
  },
];

// title, artist, genre, mood, bpm, tags
type Line = [string, string, SeedTrack["genre"], SeedTrack["mood"], number, string];
const CATALOGUE: Line[] = [
  ["Golden Hour", "Lumen Drift", "Lo-fi", "Chill", 82, "sunset study relax warm"],
  ["Midnight Ramen", "Kaito Vale", "Lo-fi", "Calm", 76, "night cooking cozy study"],
  ["Street Lights", "Static Bloom", "Hip-Hop", "Dark", 92, "urban night gritty beat"],
  ["Level Up", "Shortbeat Originals", "Electronic", "Energetic", 150, "gaming victory arcade hype"],
  ["Cloud Nine", "Juniper Sound", "Pop", "Happy", 118, "bright summer fun dance"],
  ["First Light", "Harbor Lights", "Ambient", "Calm", 64, "morning meditation soft nature"],
  ["Thunder Road Trip", "Cedar & Stone", "Rock", "Energetic", 132, "travel guitar drive adventure"],
  ["Velvet Room", "Maya Okafor", "Jazz", "Romantic", 88, "lounge date piano smooth"],
  ["Epic Reveal", "Shortbeat Originals", "Cinematic", "Dramatic", 100, "trailer reveal tension epic"],
  ["Pixel Parade", PARTNER_ARTIST, "Electronic", "Quirky", 124, "retro 8bit playful comedy"],
  ["Rainy Window", "Lumen Drift", "Lo-fi", "Sad", 70, "rain melancholy study piano"],
  ["Funk Fiesta", "Static Bloom", "Funk", "Happy", 112, "groove bass party dance"],
  ["Neon Skyline", PARTNER_ARTIST, "Synthwave", "Energetic", 110, "retro 80s city drive"],
  ["Slow Bloom", "Juniper Sound", "Acoustic", "Calm", 72, "spring garden gentle guitar"],
  ["Moonlit Waltz", "Maya Okafor", "Classical", "Romantic", 90, "waltz strings elegant wedding"],
  ["Shadow Play", "Kaito Vale", "Cinematic", "Dark", 84, "mystery suspense horror tension"],
  ["Bounce House", "Shortbeat Originals", "Hip-Hop", "Quirky", 98, "funny bouncy kids comedy"],
  ["Summit Push", "Cedar & Stone", "Rock", "Uplifting", 140, "sports workout motivation climb"],
  ["Ocean Drift", "Harbor Lights", "Ambient", "Chill", 68, "sea waves calm travel"],
  ["Cafe Morning", "Maya Okafor", "Jazz", "Happy", 104, "coffee breakfast vlog cozy"],
  ["Heartline", "Juniper Sound", "Pop", "Romantic", 96, "love couple sweet vlog"],
  ["Turbo Sprint", PARTNER_ARTIST, "Electronic", "Energetic", 170, "speed race edm workout"],
  ["Grey Afternoon", "Lumen Drift", "Acoustic", "Sad", 66, "lonely guitar reflective autumn"],
  ["Brass Parade", "Static Bloom", "Funk", "Energetic", 120, "horns celebration street march"],
  ["Starfield", "Harbor Lights", "Cinematic", "Uplifting", 78, "space wonder inspiring orchestral"],
  ["Toy Box", "Shortbeat Originals", "Classical", "Quirky", 132, "pizzicato kids playful cartoon"],
  ["Chrome Hearts", PARTNER_ARTIST, "Synthwave", "Romantic", 100, "retro love neon 80s"],
  ["Deep Focus", "Kaito Vale", "Ambient", "Calm", 60, "study focus minimal work"],
  ["Boom Bap Diaries", "Static Bloom", "Hip-Hop", "Chill", 88, "oldschool vinyl daily vlog"],
  ["Sunny Side Up", "Juniper Sound", "Acoustic", "Happy", 116, "ukulele breakfast cheerful cooking"],
  ["Afterglow", "Lumen Drift", "Synthwave", "Chill", 94, "sunset retro dreamy drive"],
  ["Wild Card", "Cedar & Stone", "Rock", "Quirky", 150, "garage surprise fun prank"],
  ["Candlelight", "Maya Okafor", "Classical", "Sad", 62, "piano memory tribute emotional"],
  ["Victory Lap", "Shortbeat Originals", "Pop", "Uplifting", 128, "win celebration sports anthem"],
  ["Low Tide", "Harbor Lights", "Lo-fi", "Dark", 74, "night moody rain ocean"],
  ["Groove Machine", "Static Bloom", "Funk", "Quirky", 108, "robot dance funky bass"],
  ["Hold the Line", "Kaito Vale", "Cinematic", "Energetic", 146, "action chase battle intense"],
  ["Sunday Stroll", "Juniper Sound", "Jazz", "Chill", 92, "walk park weekend easy"],
  ["Aurora", "Harbor Lights", "Electronic", "Uplifting", 126, "festival euphoric sunrise dance"],
  ["Night Market", "Kaito Vale", "Hip-Hop", "Energetic", 102, "street food city busy"],
];

const SUBMISSIONS: Line[] = [
  ["Paper Moon", PARTNER_ARTIST, "Pop", "Romantic", 100, "dreamy night love"],
  ["Loud Room Demo", PARTNER_ARTIST, "Rock", "Energetic", 138, "demo garage loud"],
];
export const REJECTION_NOTE = "The chorus clips (the mix peaks above 0 dBFS). Please send a mastered version.";

const SCALES = {
  bright: [0, 2, 4, 7, 9, 12, 14, 16],
  minor: [0, 3, 5, 7, 10, 12, 15, 17],
  soft: [0, 4, 7, 11, 12, 14, 16, 19],
};
const MOOD_SCALE: Record<SeedTrack["mood"], keyof typeof SCALES> = {
  Calm: "soft",
  Chill: "soft",
  Romantic: "soft",
  Dark: "minor",
  Dramatic: "minor",
  Sad: "minor",
  Energetic: "bright",
  Happy: "bright",
  Quirky: "bright",
  Uplifting: "bright",
};

/** A small deterministic random source, so every run writes the same notes. */
function prng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/**
 * The catalogue lines that last longer than the 12–30 s loops, so the Length filter ("from 0:30",
 * "1:00–2:00") finds something (issue 42): four tracks, 0:48 to 2:20, seconds by title. A longer
 * track costs one cycle of synthesis like the others (the cycle is repeated), but its WAV (32 KB a
 * second) and its MP3 preview's encoding grow with its length, hence only four.
 */
const LONG_TRACKS: Record<string, number> = { "Victory Lap": 48, "Ocean Drift": 65, "Deep Focus": 110, "Epic Reveal": 140 };

/**
 * Notes for a catalogue line: a one-bar motif in the mood's scale over a four-chord bass, as one
 * cycle repeated to last 12–30 s, or `seconds` (16 kHz mono: small files, quick to make).
 */
function composed(
  n: number,
  mood: SeedTrack["mood"],
  bpm: number,
  seconds = 12 + ((n * 7) % 19),
): Pick<SeedTrack, "melody" | "bass" | "repeat" | "sampleRate"> {
  const rand = prng(n * 7919);
  const scale = SCALES[MOOD_SCALE[mood]];
  const root = 57 + ((n * 5) % 12);
  const step = bpm >= 110 ? 0.5 : 1;
  const motif = Array.from({ length: 8 }, () => (rand() < 0.15 ? null : root + expectAt(scale, Math.floor(rand() * scale.length), "scale notes")));
  const cycleBeats = 8 * step;
  const progression = MOOD_SCALE[mood] === "minor" ? [0, -4, 3, -2] : [0, -3, 5, 7];
  return {
    melody: pattern(motif, step, 1),
    bass: pattern(
      progression.map((p) => root - 24 + p),
      cycleBeats / 4,
      1,
    ),
    repeat: Math.max(2, Math.round((seconds * bpm) / 60 / cycleBeats)),
    sampleRate: 16_000,
  };
}

export const MUSIC_SEED_TRACKS: SeedTrack[] = [
  ...CLASSICS,
  ...CATALOGUE.map(
    ([title, artist, genre, mood, bpm, tags], i): SeedTrack => ({
      id: uuid(1001 + i),
      title,
      artist,
      genre,
      mood,
      bpm,
      tags,
      status: "published",
      byPartner: artist === PARTNER_ARTIST,
      age: 80 - i * 2,
      ...composed(i + 1, mood, bpm, LONG_TRACKS[title]),
    }),
  ),
  ...SUBMISSIONS.map(
    ([title, artist, genre, mood, bpm, tags], i): SeedTrack => ({
      id: uuid(1101 + i),
      title,
      artist,
      genre,
      mood,
      bpm,
      tags,
      status: i === 0 ? "in_review" : "rejected",
      byPartner: true,
      reviewNote: i === 0 ? undefined : REJECTION_NOTE,
      age: i === 0 ? 1 : 5,
      ...composed(60 + i, mood, bpm),
    }),
  ),
];

/** The demo creator's licences: track id → days before SEED_EPOCH it was taken. */
const LICENCES: { id: string; trackId: string; age: number }[] = [
  { id: uuid(2001), trackId: uuid(101), age: 60 },
  { id: uuid(2002), trackId: uuid(1013), age: 30 },
  { id: uuid(2003), trackId: uuid(1004), age: 21 },
  { id: uuid(2004), trackId: uuid(1009), age: 12 },
  { id: uuid(2005), trackId: uuid(1020), age: 6 },
  { id: uuid(2006), trackId: uuid(102), age: 2 },
];

/** An instant of a demo seed's story: `hour`:00 UTC, `daysAgo` days before yesterday (iso(0) is yesterday, so it is never in the future). Other seeds use it too. */
export const iso = (daysAgo: number, hour = 10) => new Date(SEED_EPOCH - daysAgo * DAY_MS + (hour - 12) * 3_600_000).toISOString();

// Covers: a diagonal gradient from the genre's hue to the mood's, with a record's rings.
export function coverPng(track: Pick<SeedTrack, "genre" | "mood" | "bpm">, size = 96): Promise<Uint8Array> {
  const h1 = (GENRES.indexOf(track.genre) * 360) / GENRES.length;
  const h2 = (h1 + 40 + (MOODS.indexOf(track.mood) * 300) / MOODS.length) % 360;
  const a = hsl(h1, 0.65, 0.55);
  const b = hsl(h2, 0.7, 0.35);
  const cx = size * (0.55 + (track.bpm % 7) / 40);
  const cy = size * 0.55;
  return encodePng(size, size, (x, y) => {
    const t = (x + y) / (2 * size);
    const r = Math.hypot(x - cx, y - cy) / size;
    const ring = r < 0.36 && (r < 0.06 || Math.floor(r * 60) % 3 === 0) ? 0.25 : 0;
    const disc = r < 0.36 ? 0.35 : 0;
    const mix = (i: 0 | 1 | 2) => Math.round((a[i] * (1 - t) + b[i] * t) * (1 - disc) + 20 * disc + 255 * ring * (r < 0.06 ? 1 : 0.3));
    return [mix(0), mix(1), mix(2)];
  });
}

export type MusicSeedInput = {
  db: D1Database;
  media: R2Bucket;
  partnerId: string;
  adminId: string;
  creatorId: string;
  /** The creator's linked or verified channels, copied into each licence. */
  channels: { kind: "youtube" | "manual"; ref: string; title: string; url: string | null }[];
  /**
   * Encodes a track's listening preview (an MP3 of mono samples at `sampleRate`), as the server's
   * preview job does for a partner's WAV (docs/decisions/0289); the seed's Worker passes it in.
   * Without it the WAVs are streamed.
   */
  encodeMp3?: (samples: Float32Array, sampleRate: number) => Promise<Uint8Array>;
};

/** The statements of the music part of the seed (the caller runs them in its one batch) and how many audio files it stored. */
export async function musicSeed({ db, media, partnerId, adminId, creatorId, channels, encodeMp3 }: MusicSeedInput): Promise<{
  statements: D1PreparedStatement[];
  tracksUploaded: number;
}> {
  const ids = MUSIC_SEED_TRACKS.map((t) => t.id);
  const rows = await db
    .prepare(`SELECT id, peaks, cover_key, preview_key, duration_seconds FROM music_tracks WHERE id IN (${ids.map(() => "?").join(",")})`)
    .bind(...ids)
    .all<{ id: string; peaks: string; cover_key: string | null; preview_key: string | null; duration_seconds: number }>();
  const stored = new Map(rows.results.map((r) => [r.id, r]));
  const keys = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await media.list({ prefix: "music/", cursor, limit: 1000 });
    for (const o of page.objects) keys.add(o.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);

  const statements: D1PreparedStatement[] = [];
  let tracksUploaded = 0;
  for (const t of MUSIC_SEED_TRACKS) {
    const audioKey = `music/${t.id}.wav`;
    const coverKey = `music/covers/${t.id}.png`;
    const previewKey = `music/previews/${t.id}.mp3`;
    const row = stored.get(t.id);
    const previewDone = !encodeMp3 || (row?.preview_key && keys.has(row.preview_key));
    // A track an earlier seed made as a short loop and LONG_TRACKS now lengthens is made again (its audio, preview, peaks, length).
    const lengthened = row !== undefined && row.duration_seconds < (LONG_TRACKS[t.title] ?? 0) - 5;
    if (row && row.peaks !== "[]" && row.cover_key && keys.has(audioKey) && keys.has(row.cover_key) && previewDone && !lengthened) continue;

    const { wav, durationSeconds } = synthesize({ bpm: t.bpm, melody: t.melody, bass: t.bass, repeat: t.repeat, sampleRate: t.sampleRate });
    if (!keys.has(audioKey) || lengthened) {
      await media.put(audioKey, wav, { httpMetadata: { contentType: "audio/wav" }, customMetadata: { title: t.title, artist: t.artist } });
      tracksUploaded++;
    }
    let preview: Uint8Array | null = null;
    if (encodeMp3) {
      preview = await encodeMp3(
        Float32Array.from(pcmOf(wav), (v) => v / 0x8000),
        t.sampleRate ?? 22050,
      );
      if (!keys.has(previewKey) || lengthened) await media.put(previewKey, preview, { httpMetadata: { contentType: "audio/mpeg" } });
    }
    const cover = await coverPng(t);
    if (!keys.has(coverKey)) await media.put(coverKey, cover, { httpMetadata: { contentType: "image/png" } });
    const submitted = iso(t.age, 9);
    const reviewed = t.status === "in_review" ? null : iso(t.age, 14);
    const published = t.status === "published" ? reviewed : null;
    statements.push(
      // New rows get everything; a row an earlier seed wrote without peaks, tags or cover gets them.
      db
        .prepare(
          `INSERT INTO music_tracks (id, title, artist, genre, mood, bpm, duration_seconds, audio_key, audio_content_type, audio_size, cover_key, cover_size, tags, peaks,
             status, submitted_by, review_note, reviewed_by, reviewed_at, published_at, created_at, updated_at, preview_key, preview_size)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'audio/wav', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET
             duration_seconds = max(music_tracks.duration_seconds, excluded.duration_seconds),
             preview_size = CASE WHEN music_tracks.preview_key IS NULL OR excluded.duration_seconds > music_tracks.duration_seconds + 5 THEN excluded.preview_size ELSE music_tracks.preview_size END,
             preview_key = coalesce(music_tracks.preview_key, excluded.preview_key),
             audio_size = CASE WHEN music_tracks.audio_size = 0 OR excluded.duration_seconds > music_tracks.duration_seconds + 5 THEN excluded.audio_size ELSE music_tracks.audio_size END,
             cover_size = CASE WHEN music_tracks.cover_key IS NULL THEN excluded.cover_size ELSE music_tracks.cover_size END,
             cover_key = coalesce(music_tracks.cover_key, excluded.cover_key),
             tags = CASE WHEN music_tracks.tags = '' THEN excluded.tags ELSE music_tracks.tags END,
             peaks = CASE WHEN music_tracks.peaks = '[]' OR excluded.duration_seconds > music_tracks.duration_seconds + 5 THEN excluded.peaks ELSE music_tracks.peaks END`,
        )
        .bind(
          t.id,
          t.title,
          t.artist,
          t.genre,
          t.mood,
          t.bpm,
          durationSeconds,
          audioKey,
          wav.byteLength,
          coverKey,
          cover.byteLength,
          t.tags,
          JSON.stringify(peaksOf(wav)),
          t.status,
          t.byPartner ? partnerId : null,
          t.reviewNote ?? null,
          reviewed ? adminId : null,
          reviewed,
          published,
          submitted,
          reviewed ?? submitted,
          preview ? previewKey : null,
          preview?.byteLength ?? 0,
        ),
    );
  }

  for (const l of LICENCES) {
    statements.push(
      db
        .prepare(`INSERT OR IGNORE INTO music_licences (id, code, track_id, user_id, created_at) VALUES (?, ?, ?, ?, ?)`)
        .bind(l.id, newLicenceCode(), l.trackId, creatorId, iso(l.age, 15)),
    );
    for (const c of channels) {
      // Only for a licence this seed wrote (the creator may hold one for the track already).
      statements.push(
        db
          .prepare(
            `INSERT OR IGNORE INTO music_licence_channels (licence_id, channel_kind, channel_ref, title, url)
             SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM music_licences WHERE id = ?)`,
          )
          .bind(l.id, c.kind, c.ref, c.title, c.url, l.id),
      );
    }
  }
  // 'Most used' counts the licences there are.
  const licensed = [...new Set(LICENCES.map((l) => l.trackId))];
  statements.push(
    db
      .prepare(
        `UPDATE music_tracks SET licence_count = (SELECT count(*) FROM music_licences l WHERE l.track_id = music_tracks.id)
         WHERE id IN (${licensed.map(() => "?").join(",")})`,
      )
      .bind(...licensed),
  );
  return { statements, tracksUploaded };
}
