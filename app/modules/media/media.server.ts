import { SIGNED_VIDEO_URL_SECONDS } from "~/lib/constants";
import { DomainError } from "~/lib/errors";
import { env } from "~/platform/env.server";
import { fileNotFound, isValidKey, putFile, serveObject, signUrl, verifySignedUrl, type ImageType, type MediaType } from "~/platform/storage.server";

// The media rules of Shortbeat, on top of app/platform/storage.server.ts: AVATARS is public by
// design (served at AVATARS_PUBLIC_URL, /media/avatars/* locally) and holds images only; MEDIA is
// private and only reachable through URLs signed for /media/signed/*, valid 3600 s by default.
// See docs/decisions/0011-signed-media-urls.md.

// The generic storage helpers, for callers that import them from here. New code imports them
// from ~/platform/storage.server.
export {
  IMAGE_TYPES,
  VIDEO_TYPES,
  checkUpload,
  isValidKey,
  type ImageType,
  type MediaType,
  type UploadCheck,
  type VideoType,
} from "~/platform/storage.server";

export const SIGNED_PREFIX = "/media/signed/";

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Workers accept request bodies up to 100 MB (free and pro plans); one video stays well under. */
export const VIDEO_MAX_BYTES = 50 * 1024 * 1024;

/** Public images never change under their key, so they may be cached for a year. */
const PUBLIC_CACHE = "public, max-age=31536000, immutable";

/** A URL for a private MEDIA object, valid for `seconds` (3600 by default: the spec's video URL). */
export function signMediaUrl(key: string, seconds = SIGNED_VIDEO_URL_SECONDS, now = Date.now()): Promise<string> {
  return signUrl(SIGNED_PREFIX, key, seconds, now);
}

/** The public URL of an AVATARS object. */
export function avatarUrl(key: string): string {
  const base = (env.AVATARS_PUBLIC_URL || "/media/avatars").replace(/\/+$/, "");
  return `${base}/${key.split("/").map(encodeURIComponent).join("/")}`;
}

/** Stores a checked image in the public AVATARS bucket; returns its key. */
export function putPublicImage(file: File, type: ImageType, folder: string): Promise<string> {
  return putFile(env.AVATARS, file, type, folder, { cacheControl: PUBLIC_CACHE });
}

/** Stores a checked file in the private MEDIA bucket; returns its key. */
export function putPrivateMedia(file: File, type: MediaType, folder: string): Promise<string> {
  return putFile(env.MEDIA, file, type, folder);
}

/**
 * GET/HEAD of a signed MEDIA URL. The signature is the authority (a <video> element may send no
 * cookie of ours): tampered, malformed or expired → 403. Cacheable by the browser (seeking
 * re-requests ranges), never past the URL's expiry.
 */
export async function serveSignedMedia(request: Request, now = Date.now()): Promise<Response> {
  const check = await verifySignedUrl(new URL(request.url), SIGNED_PREFIX, now);
  if (!check.ok) {
    throw new DomainError("forbidden", check.reason === "expired" ? "Forbidden: this link has expired" : "Forbidden: invalid signature", {
      title: "Access Denied",
    });
  }
  const maxAge = Math.max(0, check.exp - Math.floor(now / 1000));
  return serveObject(env.MEDIA, check.key, request, `private, max-age=${Math.min(maxAge, SIGNED_VIDEO_URL_SECONDS)}`);
}

/**
 * GET/HEAD of a public AVATARS object. Keys are made by the server and never reused for other
 * content; a key that cannot be one answers the same 404 as a missing object.
 */
export function serveAvatar(request: Request, key: string): Promise<Response> {
  if (!isValidKey(key)) return Promise.resolve(fileNotFound());
  return serveObject(env.AVATARS, key, request, PUBLIC_CACHE);
}
