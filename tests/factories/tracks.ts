import { env } from "cloudflare:workers";
import type { TRACK_STATUSES } from "~/db/schema";

// A music_tracks row written straight into D1 (worker tests): no audio in MEDIA unless the test
// puts it there. `over` names the columns a test sets; a column it leaves out (and that has no
// default below) keeps the table's own default.

export type TrackStatus = (typeof TRACK_STATUSES)[number];

/** The columns a test can set, under their schema names. */
export type TrackRow = {
  id?: string;
  title?: string;
  artist?: string;
  genre?: string | null;
  mood?: string | null;
  bpm?: number | null;
  durationSeconds?: number;
  audioKey?: string;
  audioContentType?: string;
  audioSize?: number;
  coverKey?: string | null;
  tags?: string;
  peaks?: string;
  status?: TrackStatus;
  submittedBy?: string | null;
  reviewNote?: string | null;
  licenceCount?: number;
  publishedAt?: string | null;
  withdrawnAt?: string | null;
};

const COLUMNS: Record<keyof TrackRow, string> = {
  id: "id",
  title: "title",
  artist: "artist",
  genre: "genre",
  mood: "mood",
  bpm: "bpm",
  durationSeconds: "duration_seconds",
  audioKey: "audio_key",
  audioContentType: "audio_content_type",
  audioSize: "audio_size",
  coverKey: "cover_key",
  tags: "tags",
  peaks: "peaks",
  status: "status",
  submittedBy: "submitted_by",
  reviewNote: "review_note",
  licenceCount: "licence_count",
  publishedAt: "published_at",
  withdrawnAt: "withdrawn_at",
};

/**
 * The INSERT of one track, for env.DB.batch: a fresh id, "Test Track" by "Test Artist", 60 seconds,
 * audio at music/test/<id>.wav, published now; `over` on top (a published track without
 * `publishedAt` was published now; `publishedAt: null` leaves it unset). A field set to undefined
 * keeps the default.
 */
export function trackInsert(over: TrackRow = {}): D1PreparedStatement {
  const id = over.id ?? crypto.randomUUID();
  const status = over.status ?? "published";
  const row: TrackRow = {
    id,
    title: "Test Track",
    artist: "Test Artist",
    durationSeconds: 60,
    audioKey: `music/test/${id}.wav`,
    status,
    ...(status === "published" ? { publishedAt: new Date().toISOString() } : {}),
    ...(Object.fromEntries(Object.entries(over).filter(([, v]) => v !== undefined)) as TrackRow),
  };
  const set = (Object.keys(row) as (keyof TrackRow)[]).filter((k) => row[k] !== undefined);
  return env.DB.prepare(`INSERT INTO music_tracks (${set.map((k) => COLUMNS[k]).join(", ")}) VALUES (${set.map(() => "?").join(", ")})`).bind(
    ...set.map((k) => row[k]),
  );
}

/** Inserts one track (see trackInsert) and returns its id. */
export async function insertTrack(over: TrackRow = {}): Promise<string> {
  const id = over.id ?? crypto.randomUUID();
  await trackInsert({ ...over, id }).run();
  return id;
}
