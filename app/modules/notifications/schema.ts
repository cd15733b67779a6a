import { z } from "zod";
import { isValidEmail } from "~/modules/accounts/schema";
import { sanitizeText } from "~/lib/sanitize";

// The notifications forms: the bell's mark-read posts (/api/notifications) and the admin
// broadcast form (/admin/broadcast), used by the browser for instant feedback and by the server
// as the authority. Files (image, video) are checked on the server by content.

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

export type AudienceRole = (typeof AUDIENCE_ROLES)[number]["value"];
const ROLE_VALUES = AUDIENCE_ROLES.map((r) => r.value) as [AudienceRole, ...AudienceRole[]];

export type Audience = { type: "all" } | { type: "role"; role: AudienceRole } | { type: "users"; emails: string[] };

const text = (label: string, max: number) =>
  z
    .string({ message: `${label} is required.` })
    .transform((v) => sanitizeText(v).trim())
    .pipe(
      z
        .string()
        .min(1, { message: `${label} is required.` })
        .max(max, { message: `${label} must be ${max} characters or less.` }),
    );

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

export const broadcastSchema = z
  .object({
    title: text("Title", BROADCAST_TITLE_MAX),
    content: text("Text", BROADCAST_TEXT_MAX),
    audience: z.enum(["all", "role", "users"], { message: "Choose who receives it." }),
    role: z.string().optional().default(""),
    emails: z
      .string()
      .max(BROADCAST_EMAILS_MAX * 256)
      .optional()
      .default(""),
  })
  .transform((v, ctx) => {
    let audience: Audience;
    if (v.audience === "role") {
      if (!(ROLE_VALUES as string[]).includes(v.role)) {
        ctx.addIssue({ code: "custom", path: ["role"], message: "Choose a kind of user." });
        return z.NEVER;
      }
      audience = { type: "role", role: v.role as AudienceRole };
    } else if (v.audience === "users") {
      const emails = splitEmails(v.emails);
      const bad = emails.filter((e) => !isValidEmail(e));
      if (emails.length === 0) {
        ctx.addIssue({ code: "custom", path: ["emails"], message: "Enter at least one e-mail address." });
        return z.NEVER;
      }
      if (bad.length > 0) {
        ctx.addIssue({ code: "custom", path: ["emails"], message: `Not a valid e-mail address: ${bad.slice(0, 3).join(", ")}` });
        return z.NEVER;
      }
      if (emails.length > BROADCAST_EMAILS_MAX) {
        ctx.addIssue({ code: "custom", path: ["emails"], message: `At most ${BROADCAST_EMAILS_MAX} e-mail addresses.` });
        return z.NEVER;
      }
      audience = { type: "users", emails };
    } else {
      audience = { type: "all" };
    }
    return { title: v.title, content: v.content, audience };
  });

export type BroadcastInput = z.output<typeof broadcastSchema>;

export function audienceLabel(a: Audience): string {
  if (a.type === "all") return "everyone";
  if (a.type === "role") return AUDIENCE_ROLES.find((r) => r.value === a.role)?.label.toLowerCase() ?? a.role;
  return `${a.emails.length} chosen user${a.emails.length === 1 ? "" : "s"}`;
}

/** The bell's posts to /api/notifications: one row, or everything up to what the user saw. */
export const notificationActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("mark-read"), id: z.uuid({ error: "Invalid notification id" }) }),
    z.object({ intent: z.literal("mark-all-read"), before: z.string().max(40, { error: "Invalid request" }).optional() }),
  ],
  { error: "Unknown intent" },
);
export type NotificationActionInput = z.output<typeof notificationActionSchema>;
