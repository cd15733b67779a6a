import { hmacSha256Hex, safeEqual } from "./crypto.server";
import { env } from "./env.server";
import { parseRange } from "~/lib/http-range";

// Files in R2, for every domain: server-made keys, the type of an upload checked by its content
// (never by the name or the browser's claim), puts that record the checked type, URLs signed with
// HMAC-SHA256 over path and expiry (MEDIA_SIGNING_SECRET), and serving with HTTP Range.
// Which bucket, which folder, which caps and which public paths is each domain's rule (the media
// module holds the ones of /media/*). See docs/decisions/0011-signed-media-urls.md.

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

/** Object keys are made by the server: path segments of [a-z0-9._-], no dot-only segment. */
export function isValidKey(key: string): boolean {
  if (!key || key.length > 512) return false;
  return key.split("/").every((segment) => /^[a-z0-9._-]+$/i.test(segment) && !/^\.+$/.test(segment));
}

// ---------------------------------------------------------------------------------------------
// Content types: by the first bytes
// ---------------------------------------------------------------------------------------------

export type ImageType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";
export type VideoType = "video/mp4" | "video/webm" | "video/quicktime";
export type MediaType = ImageType | VideoType;

export const IMAGE_TYPES: readonly ImageType[] = ["image/png", "image/jpeg", "image/webp", "image/gif"];
export const VIDEO_TYPES: readonly VideoType[] = ["video/mp4", "video/webm", "video/quicktime"];

const EXTENSIONS: Record<MediaType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
};

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.slice(start, end));

/** The type of a file from its first bytes (magic numbers); null when it is none we accept. */
export function sniffType(head: Uint8Array): MediaType | null {
  const b = head;
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 4) === "PNG" && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) {
    return "image/png";
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) return "image/gif";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") return "image/webp";
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return "video/webm";
  // ISO base media (mp4 / mov): a box whose type at offset 4 is 'ftyp', then the major brand.
  if (b.length >= 12 && ascii(b, 4, 8) === "ftyp") {
    const brand = ascii(b, 8, 12);
    return brand === "qt  " ? "video/quicktime" : "video/mp4";
  }
  // Older QuickTime files start with a moov/mdat/wide/free box instead of ftyp.
  if (b.length >= 8 && ["moov", "mdat", "wide", "free", "skip"].includes(ascii(b, 4, 8))) return "video/quicktime";
  return null;
}

export type UploadCheck<T extends MediaType> = { ok: true; type: T; size: number } | { ok: false; error: string };

/** Checks a file's real type (by content) against the allowed kinds and its size against the cap. */
export async function checkUpload<T extends MediaType>(file: File, allowed: readonly T[], maxBytes: number, label: string): Promise<UploadCheck<T>> {
  if (file.size === 0) return { ok: false, error: `${label} is empty.` };
  if (file.size > maxBytes) return { ok: false, error: `${label} must be ${Math.round(maxBytes / 1024 / 1024)} MB or smaller.` };
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const type = sniffType(head);
  if (!type || !(allowed as readonly MediaType[]).includes(type)) {
    const names = allowed.map((t) => EXTENSIONS[t].toUpperCase()).join(", ");
    return { ok: false, error: `${label} must be one of: ${names}.` };
  }
  return { ok: true, type: type as T, size: file.size };
}

// ---------------------------------------------------------------------------------------------
// Puts
// ---------------------------------------------------------------------------------------------

/** Safe download name: letters, digits, dot, dash, underscore; never empty. */
function safeFilename(name: string, type: MediaType): string {
  const base = name
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${base || "file"}.${EXTENSIONS[type]}`;
}

/**
 * Stores a file whose type `checkUpload` established under a new key `<folder>/<uuid>.<ext>`,
 * with that type (never the browser's) as its Content-Type; returns the key.
 */
export async function putFile(bucket: R2Bucket, file: File, type: MediaType, folder: string, opts: { cacheControl?: string } = {}): Promise<string> {
  const key = `${folder}/${crypto.randomUUID()}.${EXTENSIONS[type]}`;
  if (!isValidKey(key)) throw new Error(`Invalid storage folder: ${folder}`);
  await bucket.put(key, file.stream(), {
    httpMetadata: { contentType: type, ...(opts.cacheControl ? { cacheControl: opts.cacheControl } : {}) },
    customMetadata: { filename: safeFilename(file.name, type) },
  });
  return key;
}

// ---------------------------------------------------------------------------------------------
// Signed URLs: HMAC-SHA256 over "<path prefix><key>\n<expiry>"
// ---------------------------------------------------------------------------------------------

function signingSecret(): string {
  const secret = env.MEDIA_SIGNING_SECRET;
  // A missing secret must never degrade to an unsigned (or guessable) URL.
  if (!secret || secret === "generate") throw new Error("MEDIA_SIGNING_SECRET is not set");
  return secret;
}

const signedMessage = (prefix: string, key: string, exp: number) => `${prefix}${key}\n${exp}`;

/** `<prefix><key>?exp=…&sig=…`, valid for `seconds` from `now`. `prefix` is the serving path, e.g. "/media/signed/". */
export async function signUrl(prefix: string, key: string, seconds: number, now = Date.now()): Promise<string> {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
  const exp = Math.floor(now / 1000) + Math.max(1, Math.floor(seconds));
  const sig = await hmacSha256Hex(signingSecret(), signedMessage(prefix, key, exp));
  return `${prefix}${key}?exp=${exp}&sig=${sig}`;
}

export type SignatureCheck = { ok: true; key: string; exp: number } | { ok: false; reason: "malformed" | "expired" | "bad-signature" };

/** Checks a signed URL's path, expiry and signature (constant-time compare). */
export async function verifySignedUrl(url: URL, prefix: string, now = Date.now()): Promise<SignatureCheck> {
  if (!url.pathname.startsWith(prefix)) return { ok: false, reason: "malformed" };
  let key: string;
  try {
    key = decodeURIComponent(url.pathname.slice(prefix.length));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const expRaw = url.searchParams.get("exp") ?? "";
  const sig = url.searchParams.get("sig") ?? "";
  if (!isValidKey(key) || !/^\d{1,12}$/.test(expRaw) || !/^[0-9a-f]{64}$/.test(sig)) return { ok: false, reason: "malformed" };
  const exp = Number(expRaw);
  const expected = await hmacSha256Hex(signingSecret(), signedMessage(prefix, key, exp));
  // Signature first, so an attacker learns nothing about expiry of a URL they cannot sign.
  if (!safeEqual(sig, expected)) return { ok: false, reason: "bad-signature" };
  if (exp * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, key, exp };
}

// ---------------------------------------------------------------------------------------------
// Serving
// ---------------------------------------------------------------------------------------------

// parseRange is pure (app/lib/http-range.ts, unit-tested); re-exported for existing callers.
export { parseRange };

const INLINE_TYPES = /^(image\/(png|jpeg|webp|gif)|video\/(mp4|webm|quicktime)|audio\/[a-z0-9.+-]+)$/;

function contentTypeOf(object: R2Object): string {
  const type = object.httpMetadata?.contentType ?? "";
  return INLINE_TYPES.test(type) ? type : "application/octet-stream";
}

/**
 * Content-Disposition that saves a file under `name` (RFC 6266): an ASCII fallback `filename` and
 * the exact name as RFC 5987 `filename*`, so any name survives (accents, CJK, quotes).
 */
export function attachmentDisposition(name: string): string {
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\%]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function dispositionOf(object: R2Object, type: string): string {
  const name = (object.customMetadata?.filename ?? object.key.split("/").pop() ?? "file").replace(/[^A-Za-z0-9._-]/g, "_");
  return `${type === "application/octet-stream" ? "attachment" : "inline"}; filename="${name}"`;
}

/** The plain 404 of a file that is not there (or a key that cannot be one). */
export function fileNotFound(): Response {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}

/**
 * Answers GET/HEAD for one R2 object: Content-Type, Content-Disposition (inline for media the
 * browser shows, unless `opts.disposition` says otherwise, e.g. an attachment to save), nosniff,
 * ETag and a single HTTP Range (206 with Content-Range; 416 when unsatisfiable), so video seeking works.
 */
export async function serveObject(
  bucket: R2Bucket,
  key: string,
  request: Request,
  cacheControl: string,
  opts: { disposition?: string } = {},
): Promise<Response> {
  const head = await bucket.head(key);
  if (!head) return fileNotFound();

  const type = contentTypeOf(head);
  const headers = new Headers({
    "Content-Type": type,
    "Content-Disposition": opts.disposition ?? dispositionOf(head, type),
    "X-Content-Type-Options": "nosniff",
    "Accept-Ranges": "bytes",
    "Cache-Control": cacheControl,
    ETag: head.httpEtag,
    "Last-Modified": head.uploaded.toUTCString(),
    // Media are embedded by our own pages only; another site cannot read them with fetch.
    "Cross-Origin-Resource-Policy": "same-origin",
  });

  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch?.split(",").some((t) => t.trim() === head.httpEtag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }

  // A Range applies only while the object is unchanged (If-Range with our ETag, or absent).
  const ifRange = request.headers.get("If-Range");
  const range = ifRange && ifRange !== head.httpEtag ? null : parseRange(request.headers.get("Range"), head.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${head.size}`);
    return new Response(null, { status: 416, headers });
  }
  const isHead = request.method === "HEAD";
  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
    headers.set("Content-Length", String(range.length));
    if (isHead) return new Response(null, { status: 206, headers });
    const body = await bucket.get(key, { range });
    if (!body) return new Response("Not Found", { status: 404 });
    return new Response(body.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(head.size));
  if (isHead) return new Response(null, { status: 200, headers });
  const body = await bucket.get(key);
  if (!body) return new Response("Not Found", { status: 404 });
  return new Response(body.body, { status: 200, headers });
}
