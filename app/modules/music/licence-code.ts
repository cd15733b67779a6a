// Licence codes (client-safe, pure): 'SB-XXXX-XXXX-XXXX', twelve Crockford base32 characters of
// 5 random bits each = 60 bits from crypto.getRandomValues, so a code cannot be guessed (at a
// million licences, one guess in ~10^12 hits one; the public lookup is rate-limited as well).
// Lookups are forgiving: any case, with or without the dashes and the 'SB' prefix, and Crockford's
// look-alikes (O → 0, I and L → 1). docs/decisions/0115-licence-codes.md.

/** Crockford's base32 alphabet: digits and capitals without I, L, O and U. */
export const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export const LICENCE_PREFIX = "SB";
/** Random characters in a code (5 bits each). */
export const LICENCE_CODE_CHARS = 12;
export const LICENCE_CODE_BITS = LICENCE_CODE_CHARS * 5;

/** A code exactly as stored and shown. */
export const LICENCE_CODE_PATTERN = /^SB-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

function format(body: string): string {
  return `${LICENCE_PREFIX}-${body.slice(0, 4)}-${body.slice(4, 8)}-${body.slice(8, 12)}`;
}

/**
 * A new code. Each byte from getRandomValues gives one character through its low 5 bits (256 is a
 * multiple of 32, so every character is uniform): 12 characters, 60 random bits.
 */
export function newLicenceCode(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(LICENCE_CODE_CHARS));
  let body = "";
  for (const b of bytes) body += CROCKFORD[b & 31];
  return format(body);
}

/**
 * The stored form of what someone typed or pasted ("sb-7k2m-…", "SB7K2M…", "7k2m 9x…"), or null when
 * it cannot be a code. Never throws; the input is capped before any work.
 */
export function normalizeLicenceCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 64) return null;
  let s = input.toUpperCase().replace(/[\s\-_.]/g, "");
  if (s.length === LICENCE_CODE_CHARS + LICENCE_PREFIX.length && s.startsWith(LICENCE_PREFIX)) s = s.slice(LICENCE_PREFIX.length);
  if (s.length !== LICENCE_CODE_CHARS) return null;
  s = s.replace(/O/g, "0").replace(/[IL]/g, "1");
  for (const c of s) if (!CROCKFORD.includes(c)) return null;
  return format(s);
}

// ---- What the licence screens show (the server fills these in licences.server.ts) ------------------

export type LicenceChannel = { kind: "youtube" | "manual"; title: string; url: string | null };

/** A licence as its owner's screens show it ('My licences', the certificate). */
export type LicenceSummary = {
  code: string;
  /** When the licence was taken (ISO-8601 UTC). */
  createdAt: string;
  trackId: string;
  title: string;
  artist: string;
  /** The track left the library on this date; the licence covers videos published before it. */
  withdrawnAt: string | null;
};

export type LicenceCertificate = LicenceSummary & {
  /** The creator's display name (profile full name, else 'Creator'). */
  creatorName: string;
  channels: LicenceChannel[];
  /** The viewer owns it (an admin may read another creator's certificate). */
  own: boolean;
};

/** What the public verification page shows: no e-mail, no ids, channel titles only. */
export type LicenceVerification = Pick<LicenceCertificate, "code" | "createdAt" | "title" | "artist" | "withdrawnAt" | "creatorName"> & {
  channels: Pick<LicenceChannel, "kind" | "title">[];
};

/** The address of a licence's file download. */
export const licenceDownloadPath = (code: string) => `/music/licences/${code}/download`;
/** The owner's certificate. */
export const licenceCertificatePath = (code: string) => `/music/licences/${code}`;
/** The certificate as a PDF. */
export const licencePdfPath = (code: string) => `/music/licences/${code}/certificate.pdf`;
/** The public verification page. */
export const licenceVerificationPath = (code: string) => `/licences/${code}`;

const LONG_DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** '21 November 2026' (UTC, so the server and the browser print the same), or '—'. */
export function formatLicenceDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : LONG_DATE.format(d);
}
