import { z } from "zod";
import { isValidEmail } from "~/modules/accounts/schema";
import { oneLine, sanitizeText } from "~/lib/sanitize";
import { BROADCAST_TITLE_MAX, BROADCAST_TEXT_MAX, BROADCAST_EMAILS_MAX, AUDIENCE_ROLES, splitEmails, type AudienceRole, type Audience } from "./messages";

// The constants, labels and messages without zod live in ./messages: that is what pages import
// on their first load (docs/decisions/0086), and what the server imports them from too.

// The notifications forms: the bell's mark-read posts (/api/notifications) and the admin
// broadcast form (/admin/broadcast), used by the browser for instant feedback and by the server
// as the authority. Files (image, video) are checked on the server by content.

const ROLE_VALUES = AUDIENCE_ROLES.map((r) => r.value) as [AudienceRole, ...AudienceRole[]];

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

export const broadcastSchema = z
  .object({
    title: text("Title", BROADCAST_TITLE_MAX).transform(oneLine),
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
