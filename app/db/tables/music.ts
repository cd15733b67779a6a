import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, inList, updatedAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Music and clipping
// ---------------------------------------------------------------------------------------------

export const TRACK_STATUSES = ["in_review", "published", "rejected", "withdrawn"] as const;

export const musicTracks = sqliteTable(
  "music_tracks",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    artist: text("artist").notNull(),
    genre: text("genre"),
    mood: text("mood"),
    bpm: integer("bpm"),
    durationSeconds: integer("duration_seconds").notNull(),
    // Key of the audio file in MEDIA.
    audioKey: text("audio_key").notNull(),
    audioContentType: text("audio_content_type").notNull().default("audio/wav"),
    audioSize: integer("audio_size").notNull().default(0),
    // Key of the cover image in MEDIA (served through a route); cover_url is the legacy field.
    coverKey: text("cover_key"),
    // Bytes of the cover in MEDIA (0 without one): counted with audio_size in the partner's quota.
    coverSize: integer("cover_size").notNull().default(0),
    coverUrl: text("cover_url"),
    // A small MP3 the uploader's browser made from the audio (issue 30): what listeners stream,
    // so a preview starts within a second; null for tracks without one (the original is streamed).
    // Its bytes count in the partner's quota with the audio and the cover. docs/decisions/0270.
    previewKey: text("preview_key"),
    previewSize: integer("preview_size").notNull().default(0),
    // Lower-case words separated by single spaces (searched with the title and artist).
    tags: text("tags").notNull().default(""),
    // Waveform peaks: a JSON array of 64..1024 integers 0..255, computed once when the track is stored.
    peaks: text("peaks").notNull().default("[]"),
    status: text("status", { enum: TRACK_STATUSES }).notNull().default("in_review"),
    submittedBy: text("submitted_by").references(() => users.id, { onDelete: "set null" }),
    reviewNote: text("review_note"),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: text("reviewed_at"),
    publishedAt: text("published_at"),
    withdrawnAt: text("withdrawn_at"),
    withdrawReason: text("withdraw_reason"),
    // Licences taken (the 'most used' sort); +1 in the same batch as each new licence.
    licenceCount: integer("licence_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // The words a search finds a track by besides its title, artist and tags: its genre (also
    // without its hyphen: "Lo-fi" → "lofi"), its mood and its tempo band. Computed by SQLite and
    // read by the full-text index (music_tracks_fts, external content); docs/decisions/0240.
    searchFacets: text("search_facets").generatedAlwaysAs(
      sql`coalesce(genre, '') || ' ' || replace(coalesce(genre, ''), '-', '') || ' ' || coalesce(mood, '') || ' ' || CASE WHEN bpm IS NULL THEN '' WHEN bpm < 90 THEN 'slow downtempo' WHEN bpm < 120 THEN 'mid-tempo midtempo' ELSE 'fast uptempo' END`,
      { mode: "virtual" },
    ),
  },
  (t) => [
    uniqueIndex("music_tracks_audio_key_unique").on(t.audioKey),
    index("music_tracks_status_created_idx").on(t.status, t.createdAt),
    index("music_tracks_status_used_idx").on(t.status, t.licenceCount),
    index("music_tracks_status_title_idx").on(t.status, t.title),
    index("music_tracks_status_genre_idx").on(t.status, t.genre),
    index("music_tracks_status_mood_idx").on(t.status, t.mood),
    index("music_tracks_status_bpm_idx").on(t.status, t.bpm),
    index("music_tracks_status_duration_idx").on(t.status, t.durationSeconds),
    index("music_tracks_submitter_idx").on(t.submittedBy, t.createdAt),
    // The library's sorts, each with its tie-break, so a page is read off an index (scripts/bench-music.mjs; docs/decisions/0103).
    index("music_tracks_library_newest_idx").on(t.status, t.publishedAt, t.id),
    index("music_tracks_library_used_idx").on(t.status, t.licenceCount, t.publishedAt, t.id),
    index("music_tracks_library_title_idx").on(t.status, sql`${t.title} COLLATE NOCASE`, t.id),
    check("music_tracks_status_check", inList("status", TRACK_STATUSES)),
    check("music_tracks_bpm_check", sql`bpm is null or bpm between 40 and 250`),
  ],
);

// A submission's history (issue 30): each admin decision (with its note or reason) and each
// resubmission of a rejected track by its partner, in order. The track's row holds only the latest
// state; these rows keep every round visible to the partner and the reviewing admin.
export const MUSIC_TRACK_EVENT_KINDS = ["rejected", "resubmitted", "approved", "withdrawn"] as const;
export const musicTrackEvents = sqliteTable(
  "music_track_events",
  {
    id: text("id").primaryKey(),
    trackId: text("track_id")
      .notNull()
      .references(() => musicTracks.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MUSIC_TRACK_EVENT_KINDS }).notNull(),
    // The reviewer's note (rejected, approved) or reason (withdrawn); null for a resubmission.
    note: text("note"),
    // A resubmission's changed fields as a JSON array of names ("title", "audio", …); "[]" otherwise.
    changes: text("changes").notNull().default("[]"),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("music_track_events_track_idx").on(t.trackId, t.createdAt), check("music_track_events_kind_check", inList("kind", MUSIC_TRACK_EVENT_KINDS))],
);

// A creator's licence to use a track: one per creator and track. The code (SB-XXXX-XXXX-XXXX,
// 60 random bits in Crockford base32) is what the public verification page looks up.
export const musicLicences = sqliteTable(
  "music_licences",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    trackId: text("track_id")
      .notNull()
      .references(() => musicTracks.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("music_licences_code_unique").on(t.code),
    uniqueIndex("music_licences_track_user_unique").on(t.trackId, t.userId),
    index("music_licences_user_idx").on(t.userId, t.createdAt),
    index("music_licences_track_idx").on(t.trackId, t.createdAt),
  ],
);

// The creator's linked or verified channels when the licence was taken (a snapshot: the
// certificate and the public page keep naming them after a channel is unlinked).
export const musicLicenceChannels = sqliteTable(
  "music_licence_channels",
  {
    licenceId: text("licence_id")
      .notNull()
      .references(() => musicLicences.id, { onDelete: "cascade" }),
    channelKind: text("channel_kind", { enum: ["youtube", "manual"] }).notNull(),
    channelRef: text("channel_ref").notNull(),
    title: text("title").notNull(),
    url: text("url"),
  },
  (t) => [
    primaryKey({ columns: [t.licenceId, t.channelKind, t.channelRef] }),
    check("music_licence_channels_kind_check", sql`channel_kind in ('youtube', 'manual')`),
  ],
);

// A clipper works for the creator who invited and approved them. Split in basis points (7000 =
// 70%). A link exists only once the creator approved the clipper (docs/decisions/0205): every link
// made before invitations existed counts as approved from its creation (migration 0020).
export const clipperLinks = sqliteTable(
  "clipper_links",
  {
    id: text("id").primaryKey(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clipperUserId: text("clipper_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clipperShareBps: integer("clipper_share_bps").notNull().default(7000),
    status: text("status", { enum: ["active", "revoked"] })
      .notNull()
      .default("active"),
    createdAt: createdAt(),
    revokedAt: text("revoked_at"),
    /** When the creator approved the clipper (the latest approval, after a revocation too). */
    approvedAt: text("approved_at"),
  },
  (t) => [
    uniqueIndex("clipper_links_pair_unique").on(t.creatorUserId, t.clipperUserId),
    index("clipper_links_clipper_idx").on(t.clipperUserId),
    check("clipper_links_status_check", sql`status in ('active', 'revoked')`),
    check("clipper_links_share_check", sql`clipper_share_bps between 0 and 10000`),
  ],
);

// A creator's invitation to clip for them (docs/decisions/0205): its own single-use code (only its
// SHA-256 is kept; the link is shown once and, if the invitation names an e-mail, sent there),
// expiring after 7 days. open → accepted (a person used it: they wait for the creator) → approved
// (the clipper link is made) or declined; open → withdrawn. "Expired" is an open one past expires_at.
export const CLIPPER_INVITATION_STATUSES = ["open", "accepted", "approved", "declined", "withdrawn"] as const;
export const clipperInvitations = sqliteTable(
  "clipper_invitations",
  {
    id: text("id").primaryKey(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    /** The address it was sent to (normalized): only an account with it may accept. Null: anyone with the link. */
    email: text("email"),
    status: text("status", { enum: CLIPPER_INVITATION_STATUSES }).notNull().default("open"),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "cascade" }),
    acceptedAt: text("accepted_at"),
    /** When it was approved, declined or withdrawn. */
    decidedAt: text("decided_at"),
  },
  (t) => [
    uniqueIndex("clipper_invitations_code_unique").on(t.codeHash),
    index("clipper_invitations_creator_idx").on(t.creatorUserId, t.createdAt),
    index("clipper_invitations_accepted_by_idx").on(t.acceptedBy, t.status),
    // One open invitation per creator and address (inviting again renews it), one waiting request per creator and person.
    uniqueIndex("clipper_invitations_one_open_per_email").on(t.creatorUserId, t.email).where(sql`status = 'open' and email is not null`),
    uniqueIndex("clipper_invitations_one_request").on(t.creatorUserId, t.acceptedBy).where(sql`status = 'accepted'`),
    check("clipper_invitations_status_check", inList("status", CLIPPER_INVITATION_STATUSES)),
    check("clipper_invitations_accepted_check", sql`status in ('open', 'withdrawn') or accepted_at is not null`),
  ],
);
