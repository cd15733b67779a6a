// Broadcast limits, audiences and labels, without zod, for the pages' first load
// (docs/decisions/0086). ./schema.ts re-exports them.

export const BROADCAST_TITLE_MAX = 120;

export const BROADCAST_TEXT_MAX = 1000;

/** Chosen users per broadcast; larger groups are better reached by a kind of user. */
export const BROADCAST_EMAILS_MAX = 500;

/** Shown next to the file inputs; the server enforces the same caps (media.server.ts). */
export const BROADCAST_IMAGE_MAX_MB = 5;

export const BROADCAST_VIDEO_MAX_MB = 50;

/** The kinds of user a broadcast can target (PRODUCT.md: who uses it). */
export const AUDIENCE_ROLES = [
  { value: "creators", label: "Creators" },
  { value: "clippers", label: "Clippers" },
  { value: "music-partners", label: "Music partners" },
  { value: "agency-managers", label: "Agency managers" },
  { value: "admins", label: "Admins" },
  { value: "pending", label: "Pending users" },
] as const;

/** Splits a list of e-mails typed one per line or separated by commas, spaces or semicolons. */
export function splitEmails(raw: string): string[] {
  return [
    ...new Set(
      raw
        .split(/[\s,;]+/)
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

export function audienceLabel(a: Audience): string {
  if (a.type === "all") return "everyone";
  if (a.type === "role") return AUDIENCE_ROLES.find((r) => r.value === a.role)?.label.toLowerCase() ?? a.role;
  return `${a.emails.length} chosen user${a.emails.length === 1 ? "" : "s"}`;
}

export type AudienceRole = (typeof AUDIENCE_ROLES)[number]["value"];

export type Audience = { type: "all" } | { type: "role"; role: AudienceRole } | { type: "users"; emails: string[] };
