import { z } from "zod";
import { isUrlShaped } from "~/modules/accounts/schema";
import { NUMBER_MESSAGES, readWholeNumber } from "~/lib/numbers";
import { oneLine, sanitizeText } from "~/lib/sanitize";
import { CHANNEL_NAME_MAX, CHANNEL_URL_MAX, HANDLE_MAX, HANDLE_MESSAGES, REJECTION_REASON_MAX, CHANNEL_TOASTS } from "./messages";

// The constants, labels and messages without zod live in ./messages: that is what pages import
// on their first load (docs/decisions/0086). Re-exported here for the server and other modules.
export { CHANNEL_NAME_MAX, CHANNEL_TOASTS, CHANNEL_URL_MAX, REJECTION_REASON_MAX, SUBMISSION_STATUS_LABELS } from "./messages";

// Forms of the Channels area and the admin verification queue. Used by the browser for
// instant feedback and by the actions as the authority. Toast strings are product-spec.md
// sections 7 and 8, word for word.

/** Optional non-negative whole number; an empty field means 0 (as the sign-up metadata does). */
const count = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .default("")
    // "1,250" is 1250; "1,00" is refused, never read as 100 (docs/decisions/0203).
    .transform((v, ctx) => {
      if (v === "") return 0;
      const read = readWholeNumber(v);
      if (read.ok && Number.isSafeInteger(read.value)) return read.value;
      ctx.addIssue({
        code: "custom",
        message: !read.ok && read.problem !== "format" ? NUMBER_MESSAGES.wholeComma(label) : `${label} must be a whole number of 0 or more.`,
      });
      return z.NEVER;
    });

/** Free text that must be given: sanitized and trimmed, then checked for presence and length. */
const requiredText = (requiredMessage: string, max: number, tooLongMessage: string) =>
  z
    .string()
    .optional()
    .default("")
    .transform((v) => sanitizeText(v).trim())
    .pipe(z.string().min(1, { message: requiredMessage }).max(max, { message: tooLongMessage }));

/** The stored form of an optional channel URL: null when empty, with a scheme otherwise. */
export function normalizeChannelUrl(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  return /^https?:\/\//i.test(v) ? v : `https://${v}`;
}

export const manualSubmissionSchema = z.object({
  // A name: one line of plain text (docs/decisions/0287).
  channelName: requiredText("Channel name is required.", CHANNEL_NAME_MAX, `Channel name must be ${CHANNEL_NAME_MAX} characters or less.`).transform(oneLine),
  channelUrl: z
    .string()
    .optional()
    .default("")
    .transform((v) => v.trim())
    .refine((v) => v.length <= CHANNEL_URL_MAX, { message: `Channel URL must be ${CHANNEL_URL_MAX} characters or less.` })
    .refine((v) => v === "" || (isUrlShaped(v) && !/[<>"'\s]/.test(v)), { message: "Please enter a valid channel URL." })
    .transform(normalizeChannelUrl),
  subscriberCount: count("Subscriber count"),
  avgMonthlyViews: count("Average monthly views"),
});

export type ManualSubmissionInput = z.infer<typeof manualSubmissionSchema>;

/** Row ids are UUIDs; anything else is refused before it reaches a query. */
const rowId = (message: string) =>
  z
    .string({ message })
    .trim()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message });

export const submissionIdSchema = z.object({ id: rowId("Submission not found.") });

export const channelIdSchema = z.object({ channelId: rowId("Channel not found.") });

/** A TikTok / Instagram handle: optional (empty clears it), the @ optional, stored lower case. */
const handle = (label: string) =>
  z
    .string()
    .optional()
    .default("")
    .transform((v) => v.trim().replace(/^@/, "").toLowerCase())
    .refine((v) => v === "" || new RegExp(`^[a-z0-9._]{1,${HANDLE_MAX}}$`).test(v), { message: HANDLE_MESSAGES.format(label) })
    .transform((v) => v || null);

export const handlesSchema = z.object({ tiktok: handle("TikTok"), instagram: handle("Instagram") });

const socialPlatform = z.enum(["tiktok", "instagram"], { message: "Unknown platform." });

/** Every form of /channels, by its intent. */
export const channelActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("connect") }),
    z.object({ intent: z.literal("refresh"), ...channelIdSchema.shape }),
    z.object({ intent: z.literal("disconnect"), ...channelIdSchema.shape }),
    z.object({ intent: z.literal("submit"), ...manualSubmissionSchema.shape }),
    z.object({ intent: z.literal("submit-verification"), ...submissionIdSchema.shape }),
    z.object({ intent: z.literal("handles"), ...handlesSchema.shape }),
    // Linking / unlinking one's TikTok or Instagram account (decisions 0299, 0300).
    z.object({ intent: z.literal("link-social"), platform: socialPlatform }),
    z.object({ intent: z.literal("unlink-social"), platform: socialPlatform }),
  ],
  { message: "Unknown action." },
);
export type ChannelAction = z.output<typeof channelActionSchema>;

/** The spec's toast title of each /channels form when it fails (section 8). */
export const CHANNEL_ACTION_TITLES: Record<ChannelAction["intent"], string> = {
  connect: CHANNEL_TOASTS.connectFailedTitle,
  refresh: CHANNEL_TOASTS.refreshFailedTitle,
  disconnect: CHANNEL_TOASTS.disconnectFailedTitle,
  submit: CHANNEL_TOASTS.submitFailedTitle,
  "submit-verification": CHANNEL_TOASTS.actionFailedTitle,
  handles: HANDLE_MESSAGES.failedTitle,
  "link-social": "Could not start linking",
  "unlink-social": "Could not unlink",
};

export const reviewSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("verify"), id: rowId("Submission not found.") }),
    z.object({
      intent: z.literal("reject"),
      id: rowId("Submission not found."),
      reason: requiredText("A reason is required to reject a submission.", REJECTION_REASON_MAX, `Reason must be ${REJECTION_REASON_MAX} characters or less.`),
    }),
  ],
  { message: "Unknown action." },
);
export type ReviewDecision = z.output<typeof reviewSchema>;
