import { z } from "zod";
import { many } from "~/lib/forms";
import { oneLine, sanitizeText } from "~/lib/sanitize";
import { CHAT_MENTIONS_MAX, CHAT_MESSAGE_MAX, CHAT_TEXT, MUTE_PERIODS, MUTE_REASON_MAX, ROOM_DESCRIPTION_MAX, ROOM_NAME_MAX, messageTooLong } from "./messages";

export * from "./messages";

// The chat forms: POST /api/chat (send, edit, delete, read) and the admin's /chat-management
// (rooms, message delete, mutes). The browser validates with them too; the server is the authority.
// Message text goes through the spec's basic sanitizer (sanitizeText), not the strict one, which
// would eat links; it is shown as text, never as HTML.

const id = z.string().uuid({ message: "Unknown item." });

/** Sanitized, trimmed message text of 1 to 1,000 characters (counted after sanitizing). */
export const messageBody = z
  .string({ message: CHAT_TEXT.emptyMessage })
  .max(CHAT_MESSAGE_MAX * 4, { message: messageTooLong })
  .transform((v) => sanitizeText(v.replace(/\r\n?/g, "\n")).trim())
  .pipe(z.string().min(1, { message: CHAT_TEXT.emptyMessage }).max(CHAT_MESSAGE_MAX, { message: messageTooLong }));

const text = (label: string, max: number, required = true) =>
  z
    .string()
    .optional()
    .default("")
    .transform((v) => sanitizeText(v).trim())
    .pipe(
      required
        ? z
            .string()
            .min(1, { message: `${label} is required.` })
            .max(max, { message: `${label} must be ${max} characters or less.` })
        : z.string().max(max, { message: `${label} must be ${max} characters or less.` }),
    );

export const chatActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("send"),
    roomId: id,
    body: messageBody,
    mentions: many(id).pipe(z.array(id).max(CHAT_MENTIONS_MAX, { message: `At most ${CHAT_MENTIONS_MAX} mentions per message.` })),
    /** The browser's id for the pending message (so a retry does not post twice). */
    clientId: z.string().max(64).optional().default(""),
  }),
  z.object({ intent: z.literal("edit"), id, body: messageBody }),
  z.object({ intent: z.literal("delete"), id }),
  z.object({ intent: z.literal("read"), roomId: id, seq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
]);
export type ChatActionInput = z.infer<typeof chatActionSchema>;

const roomFields = {
  // A name: one line of plain text (docs/decisions/0287).
  name: text("Name", ROOM_NAME_MAX).transform(oneLine),
  description: text("Description", ROOM_DESCRIPTION_MAX, false),
  kind: z.enum(["general", "announcements"], { message: "Choose who may post." }),
};

export const chatAdminSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create-room"), ...roomFields }),
  z.object({ intent: z.literal("update-room"), roomId: id, ...roomFields }),
  z.object({ intent: z.literal("archive-room"), roomId: id }),
  z.object({ intent: z.literal("restore-room"), roomId: id }),
  z.object({ intent: z.literal("move-room"), roomId: id, direction: z.enum(["up", "down"], { message: "Choose a direction." }) }),
  z.object({ intent: z.literal("delete-message"), id }),
  z.object({
    intent: z.literal("mute"),
    userId: id,
    /** The room; empty: every room (decision 0246). */
    roomId: z
      .union([id, z.literal("")])
      .optional()
      .default("")
      .transform((v) => v || null),
    minutes: z.enum(MUTE_PERIODS.map((p) => p.value) as [string, ...string[]], { message: "Choose how long." }).transform(Number),
    reason: text("Reason", MUTE_REASON_MAX),
  }),
  /** Ends one mute (a room's, or the every-room one), by its id. */
  z.object({ intent: z.literal("unmute"), muteId: id }),
]);
export type ChatAdminInput = z.infer<typeof chatAdminSchema>;
