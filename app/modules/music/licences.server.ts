import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { musicLicenceChannels, musicLicences, musicTracks } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import type { BatchItem } from "drizzle-orm/batch";
import { conflict, invalid, notFound, rateLimited } from "~/lib/errors";
import { many } from "~/lib/forms";
import { type Actor, authorize } from "~/lib/permissions";
import { fullNameOfUser } from "~/modules/accounts/accounts.server";
import { type LicensableChannel, licensableChannels, startLicensableChannels } from "~/modules/channels/channels.server";
import { db } from "~/platform/db.server";
import { attachmentDisposition } from "~/platform/storage.server";
import { appName, env } from "~/platform/env.server";
import { consume, ipScope, LICENCE_LOOKUP_LIMIT } from "~/platform/rate-limit.server";
import { licenceCertificatePdf, licencePdfName } from "./licence-pdf";
import {
  type LicenceCertificate,
  type LicenceChannel,
  type LicenceSummary,
  type LicenceVerification,
  licenceDownloadPath,
  newLicenceCode,
  normalizeLicenceCode,
} from "./licence-code";

// Licences (issue 13): 'Use this track' records one licence per creator and track, covering the
// creator's linked and verified channels at that moment (a snapshot in music_licence_channels);
// the owner downloads the file and reads a printable certificate; anyone can verify a code on
// /licences/:code. docs/decisions/0115-0119.

/** The 'Use this track' form: one field, the track. */
export const useTrackSchema = z.object({
  intent: z.literal("use"),
  trackId: z.string({ message: "Choose a track." }).trim().uuid({ message: "Choose a track." }),
  /** The channels the licence covers, as "youtube:<id>" / "manual:<id>"; none sent: every linked channel (decision 0248). */
  channels: many(z.string().max(200)).pipe(z.array(z.string()).max(50, { message: "Choose at most 50 channels." })),
});

/** A channel as the 'Use this track' form names it. */
export const channelChoiceValue = (c: { kind: string; ref: string }) => `${c.kind}:${c.ref}`;

export type LicenceChannelChoice = { value: string; title: string; kind: "youtube" | "manual" };

/**
 * The channels a creator may pick for a licence (their linked and verified channels), for the
 * library's rows: riding in this request's session lookup (/music: one round trip). Call before the guard.
 */
export function startLicenceChannelChoices(args: Parameters<typeof startLicensableChannels>[0]): (actor: Actor) => Promise<LicenceChannelChoice[]> {
  const channels = startLicensableChannels(args);
  return async (actor) => {
    authorize(actor, "music", "license");
    return (await channels(actor)).map(toChoice);
  };
}

const toChoice = (c: LicensableChannel): LicenceChannelChoice => ({ value: channelChoiceValue(c), title: c.title, kind: c.kind });

export const LICENCE_MESSAGES = {
  noChannel: {
    title: "Link a channel first",
    description: "A licence covers your channels: link a YouTube channel or get one verified on the Channels page, then use the track.",
  },
  unknownChannel: "Choose among your linked channels.",
  withdrawn: (date: string) =>
    `This track was withdrawn on ${date}. Your licence stays valid for videos published before then, but the file can no longer be downloaded.`,
} as const;

/** The page that fixes 'Link a channel first'. */
export const CHANNELS_PATH = "/channels";

/** A display name that is safe to show anyone: the profile's full name, never the e-mail. */
const creatorNameOf = (userId: typeof musicLicences.userId) => sql<string>`coalesce(nullif(trim(${fullNameOfUser(userId)}), ''), 'Creator')`;

const summaryColumns = {
  id: musicLicences.id,
  code: musicLicences.code,
  createdAt: musicLicences.createdAt,
  userId: musicLicences.userId,
  // Not music_tracks.id: in a D1 batch drizzle reads a row by column name, and two columns named
  // "id" would collapse into one (the join makes them equal anyway).
  trackId: musicLicences.trackId,
  title: musicTracks.title,
  artist: musicTracks.artist,
  status: musicTracks.status,
  withdrawnAt: musicTracks.withdrawnAt,
};

type SummaryRow = { code: string; createdAt: string; trackId: string; title: string; artist: string; status: string; withdrawnAt: string | null };

function summaryOf(r: SummaryRow): LicenceSummary {
  return {
    code: r.code,
    createdAt: r.createdAt,
    trackId: r.trackId,
    title: r.title,
    artist: r.artist,
    // Only a withdrawn track limits its licences; a withdrawn row without a date (legacy) uses the licence date.
    withdrawnAt: r.status === "withdrawn" ? (r.withdrawnAt ?? r.createdAt) : null,
  };
}

export type TakenLicence = { licence: LicenceSummary; created: boolean; downloadUrl: string };

/**
 * 'Use this track': the actor's licence for a published track, recorded once. A second click (or
 * five at once) returns the same licence: the insert is `ON CONFLICT DO NOTHING` on the unique
 * (track_id, user_id), and the track's licence_count and the channel snapshot follow in the same
 * batch only when that insert added the row (`changes() = 1`, and `WHERE EXISTS` our new id).
 * Refused: a track that is not published (404, never reveal it), an actor without a linked or
 * verified channel (409 'Link a channel first', details.link = /channels).
 */
export async function takeLicence(actor: Actor, trackId: string, chosen: readonly string[] = []): Promise<TakenLicence> {
  authorize(actor, "music", "license");
  // The track, an earlier licence and the creator's channels at once.
  const [[[track], [existing]], linked] = await Promise.all([
    db().batch([publishedTrackQuery(trackId), licenceOfQuery(actor.id, trackId)]),
    licensableChannels(actor),
  ]);
  if (!track) throw notFound("Track not found.");
  // The creator picks among their own linked channels (decision 0248); nothing picked: all of them.
  const wanted = new Set(chosen);
  const channels = wanted.size === 0 ? linked : linked.filter((c) => wanted.has(channelChoiceValue(c)));
  if (channels.length < wanted.size) throw invalid(LICENCE_MESSAGES.unknownChannel, { fieldErrors: { channels: LICENCE_MESSAGES.unknownChannel } });
  if (existing) {
    // The same licence; channels picked now that it does not cover yet are added (never removed:
    // a certificate already shown must stay true). ON CONFLICT: two clicks at once add them once.
    if (wanted.size > 0) await db().batch(channelRowsQueries(existing.id, channels) as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return { licence: summaryOf(existing), created: false, downloadUrl: licenceDownloadPath(existing.code) };
  }

  if (channels.length === 0) {
    throw conflict(LICENCE_MESSAGES.noChannel.description, { title: LICENCE_MESSAGES.noChannel.title, details: { link: CHANNELS_PATH } });
  }

  // A fresh code that happens to equal another licence's (1 in 2^60 per pair) is dropped by the
  // same ON CONFLICT; the row then is not ours and the next round draws another code.
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = crypto.randomUUID();
    const code = newLicenceCode();
    const now = new Date().toISOString();
    await db().batch([
      // INSERT ... SELECT from the track, so a track withdrawn a moment ago gets no licence.
      db()
        .insert(musicLicences)
        .select(
          db()
            .select({
              id: sql<string>`${id}`.as("id"),
              code: sql<string>`${code}`.as("code"),
              trackId: musicTracks.id,
              userId: sql<string>`${actor.id}`.as("user_id"),
              createdAt: sql<string>`${now}`.as("created_at"),
            })
            .from(musicTracks)
            .where(and(eq(musicTracks.id, trackId), eq(musicTracks.status, "published"))),
        )
        .onConflictDoNothing(),
      // +1 only when the insert just above added a row (changes() is the previous statement's count).
      db()
        .update(musicTracks)
        .set({ licenceCount: sql`${musicTracks.licenceCount} + 1` })
        .where(and(eq(musicTracks.id, trackId), sql`changes() = 1`)),
      // The channels the licence covers, selected from our new row: nothing when it was not inserted.
      ...channelRowsQueries(id, channels),
    ]);
    const row = await licenceOf(actor.id, trackId);
    if (row) return { licence: summaryOf(row), created: row.id === id, downloadUrl: licenceDownloadPath(row.code) };
    // No row: the track left the library in between (404), or the code collided (draw again).
    const still = await publishedTrackQuery(trackId);
    if (still.length === 0) throw notFound("Track not found.");
  }
  throw conflict("The licence could not be recorded. Please try again.");
}

/** The channel rows of licence `licenceId` (selected from the licence row: nothing when it does not exist), once each. */
function channelRowsQueries(licenceId: string, channels: readonly { kind: string; ref: string; title: string; url: string | null }[]) {
  return channels.map((c) =>
    db()
      .insert(musicLicenceChannels)
      .select(
        db()
          .select({
            licenceId: musicLicences.id,
            channelKind: sql<string>`${c.kind}`.as("channel_kind"),
            channelRef: sql<string>`${c.ref}`.as("channel_ref"),
            title: sql<string>`${c.title}`.as("title"),
            url: sql<string | null>`${c.url}`.as("url"),
          })
          .from(musicLicences)
          .where(eq(musicLicences.id, licenceId)),
      )
      .onConflictDoNothing(),
  );
}

function publishedTrackQuery(trackId: string) {
  return db()
    .select({ id: musicTracks.id })
    .from(musicTracks)
    .where(and(eq(musicTracks.id, trackId), eq(musicTracks.status, "published")))
    .limit(1);
}

function licenceOfQuery(userId: string, trackId: string) {
  return db()
    .select(summaryColumns)
    .from(musicLicences)
    .innerJoin(musicTracks, eq(musicTracks.id, musicLicences.trackId))
    .where(and(eq(musicLicences.userId, userId), eq(musicLicences.trackId, trackId)))
    .limit(1);
}

async function licenceOf(userId: string, trackId: string) {
  const [row] = await licenceOfQuery(userId, trackId);
  return row ?? null;
}

/** The actor's licences, newest first ('My licences'), each with the channels it covers. */
export async function myLicences(actor: Actor, limit = 200): Promise<(LicenceSummary & { channels: LicenceChannel[] })[]> {
  authorize(actor, "music", "license");
  const d = db();
  const [rows, channels] = await d.batch([
    d
      .select(summaryColumns)
      .from(musicLicences)
      .innerJoin(musicTracks, eq(musicTracks.id, musicLicences.trackId))
      .where(eq(musicLicences.userId, actor.id))
      .orderBy(desc(musicLicences.createdAt), desc(musicLicences.id))
      .limit(limit),
    d
      .select({ kind: musicLicenceChannels.channelKind, ...columnsOf(musicLicenceChannels, "licenceId", "title", "url") })
      .from(musicLicenceChannels)
      .innerJoin(musicLicences, eq(musicLicences.id, musicLicenceChannels.licenceId))
      .where(eq(musicLicences.userId, actor.id))
      .orderBy(asc(musicLicenceChannels.channelKind), asc(musicLicenceChannels.title)),
  ]);
  const byLicence = new Map<string, LicenceChannel[]>();
  for (const c of channels) byLicence.set(c.licenceId, [...(byLicence.get(c.licenceId) ?? []), { kind: c.kind, title: c.title, url: c.url }]);
  return rows.map((r) => ({ ...summaryOf(r), channels: byLicence.get(r.id) ?? [] }));
}

/** A licence by its code (any case, dashes optional) with its channels, or null: one D1 round trip. */
async function licenceByCode(input: string) {
  const code = normalizeLicenceCode(input);
  if (!code) return null;
  const d = db();
  const [[row], channels] = await d.batch([
    d
      .select({ ...summaryColumns, creatorName: creatorNameOf(musicLicences.userId) })
      .from(musicLicences)
      .innerJoin(musicTracks, eq(musicTracks.id, musicLicences.trackId))
      .where(eq(musicLicences.code, code))
      .limit(1),
    d
      .select({ kind: musicLicenceChannels.channelKind, title: musicLicenceChannels.title, url: musicLicenceChannels.url })
      .from(musicLicenceChannels)
      .where(eq(musicLicenceChannels.licenceId, d.select({ id: musicLicences.id }).from(musicLicences).where(eq(musicLicences.code, code))))
      .orderBy(asc(musicLicenceChannels.channelKind), asc(musicLicenceChannels.title)),
  ]);
  if (!row) return null;
  return { row, channels: channels as LicenceChannel[] };
}

/**
 * The certificate: its owner, and admins (support, disputes; docs/decisions/0117). Anyone else,
 * and an unknown code, is 404 alike.
 */
export async function licenceCertificate(actor: Actor, code: string): Promise<LicenceCertificate> {
  authorize(actor, "music", "browse");
  const found = await licenceByCode(code);
  if (!found) throw notFound("Licence not found.");
  authorize(actor, "music", "readLicence", { ownerId: found.row.userId });
  return { ...summaryOf(found.row), creatorName: found.row.creatorName, channels: found.channels, own: found.row.userId === actor.id };
}

/**
 * The certificate as a one-page PDF attachment (licence-pdf.ts): the same readers as the
 * certificate page (its owner; admins), 404 for anyone else. Private, never cached.
 */
export async function licenceCertificateDownload(actor: Actor, code: string, origin: string): Promise<Response> {
  const licence = await licenceCertificate(actor, code);
  const pdf = licenceCertificatePdf(licence, appName(), origin);
  return new Response(pdf, {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.byteLength),
      "Content-Disposition": attachmentDisposition(licencePdfName(appName(), licence.code)),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}

/**
 * The public verification page: valid (or valid for videos published before the withdrawal),
 * for which track and channels, since when. Rate-limited per address before anything is read (429
 * 'Rate limit exceeded'). Null for an unknown or malformed code: the page answers 404 saying it is
 * not a valid licence (issue 42), not the generic not-found page.
 */
export async function verifyLicence(request: Request, code: string): Promise<LicenceVerification | null> {
  const limit = await consume("licence-lookup", ipScope(request), LICENCE_LOOKUP_LIMIT);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds);
  const found = await licenceByCode(code);
  if (!found) return null;
  const s = summaryOf(found.row);
  return {
    code: s.code,
    createdAt: s.createdAt,
    title: s.title,
    artist: s.artist,
    creatorName: found.row.creatorName,
    channels: found.channels.map((c) => ({ kind: c.kind, title: c.title })),
    withdrawnAt: s.withdrawnAt,
  };
}

// ---- The download ------------------------------------------------------------------------------

const EXTENSIONS: Record<string, string> = {
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/wave": "wav",
  "audio/x-wav": "wav",
  "audio/vnd.wave": "wav",
};

/** 'Artist - Title (Shortbeat licence SB-XXXX-XXXX-XXXX).wav', without characters file systems refuse. */
export function licensedFileName(artist: string, title: string, code: string, contentType: string, brand = "Shortbeat"): string {
  const clean = (s: string) =>
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^\.+/, "")
      .slice(0, 80) || "Untitled";
  const ext = EXTENSIONS[contentType.toLowerCase()] ?? "wav";
  return `${clean(artist)} - ${clean(title)} (${clean(brand)} licence ${code}).${ext}`;
}

/**
 * The licensed file, as an attachment with its proper name: the licence's owner only (404 for
 * anyone else), while the track is published (a withdrawn track's file is no longer handed out;
 * 409 says why). Never cached by a shared cache.
 */
export async function downloadLicensedTrack(actor: Actor, code: string): Promise<Response> {
  authorize(actor, "music", "license");
  const normalized = normalizeLicenceCode(code);
  if (!normalized) throw notFound("Licence not found.");
  const [row] = await db()
    .select({
      ...columnsOf(musicLicences, "userId", "code"),
      ...columnsOf(musicTracks, "title", "artist", "status", "withdrawnAt", "audioKey", "audioContentType"),
    })
    .from(musicLicences)
    .innerJoin(musicTracks, eq(musicTracks.id, musicLicences.trackId))
    .where(eq(musicLicences.code, normalized))
    .limit(1);
  if (!row) throw notFound("Licence not found.");
  authorize(actor, "music", "downloadLicensed", { ownerId: row.userId });
  if (row.status !== "published") {
    throw conflict(LICENCE_MESSAGES.withdrawn((row.withdrawnAt ?? "").slice(0, 10) || "an earlier date"), { title: "Track withdrawn" });
  }
  const object = await env.MEDIA.get(row.audioKey);
  if (!object) throw notFound("The file of this track is missing. Please contact support.");
  const contentType = EXTENSIONS[row.audioContentType.toLowerCase()] ? row.audioContentType : (object.httpMetadata?.contentType ?? row.audioContentType);
  const name = licensedFileName(row.artist, row.title, row.code, contentType, appName());
  return new Response(object.body, {
    status: 200,
    headers: {
      "Content-Type": EXTENSIONS[contentType.toLowerCase()] ? contentType : "application/octet-stream",
      "Content-Length": String(object.size),
      "Content-Disposition": attachmentDisposition(name),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}
