// The demo music catalogue: 45 published tracks across every genre and mood, with audio
// synthesized on the spot (short mono WAVs), peaks computed from that audio, cover images drawn
// in code (PNG), tags and BPMs; a partner's submission in review and one rejected with a note; and
// licences of the demo creator covering their channels. Idempotent and quick on a second run: a
// track whose row, peaks, audio and cover are all there is not synthesized again.
// docs/decisions/0102-music-seed.md.
import { GENRES, MOODS } from "../modules/music/library.ts";
import { newLicenceCode } from "../modules/music/licence-code.ts";
import { LONG_TRACKS, MUSIC_SEED_TRACKS, type SeedTrack, uuid } from "./music-catalogue.ts";
import { encodePng, hsl } from "./png.ts";
import { pcmOf, peaksOf, synthesize } from "./wav.ts";

export { MUSIC_SEED_TRACKS, REJECTION_NOTE, type SeedTrack } from "./music-catalogue.ts";

// The seed's dates count back from yesterday noon (UTC) of the day it runs, so the partner's
// "licences per week" chart and the recent dates have something to show whenever the demo is
// seeded (a fixed date drifted out of the chart's 12 weeks). Rows are INSERT OR IGNORE: a second
// run changes no date.
const DAY_MS = 86_400_000;
const SEED_EPOCH = Math.floor(Date.now() / DAY_MS) * DAY_MS - 12 * 3_600_000;

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
