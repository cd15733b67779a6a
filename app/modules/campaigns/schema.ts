import { z } from "zod";
import "~/lib/zod-config";
import { checkbox } from "~/lib/forms";
import { NUMBER_MESSAGES, readCents, readWholeNumber } from "~/lib/numbers";
import { oneLine, sanitizeText } from "~/lib/sanitize";
import { VIDEO_URL_MAX } from "./video-url";

// The campaign forms: the creator's /campaigns (join, submit) and the admin console's
// /admin/campaigns (create, edit, transitions, review). Client-safe.
export * from "./messages";
import { BRAND_MAX, TITLE_MAX, BRIEF_MAX, SLUG_MAX, REASON_MAX, RATE_MAX_CENTS, BUDGET_MAX_CENTS, VIEWS_MAX } from "./messages";

const id = z.string({ message: "Missing id." }).trim().uuid({ message: "Invalid id." });

const text = (label: string, max: number) =>
  z
    .string()
    .optional()
    .default("")
    .transform((v) => sanitizeText(v).trim())
    .pipe(
      z
        .string()
        .min(1, { message: `${label} is required.` })
        .max(max, { message: `${label} must be ${max} characters or less.` }),
    );

/**
 * "12", "12.5", "12.50", "1,200.00" (USD) → cents; must be positive. "2,50" is refused, never read
 * as 250.00: a decimal comma is ambiguous (docs/decisions/0203).
 */
const money = (label: string, max: number) =>
  z
    .string()
    .optional()
    .default("")
    .transform((v, ctx) => {
      const read = readCents(v);
      if (read.ok) return read.cents;
      const message =
        read.problem === "decimalComma" || read.problem === "grouping"
          ? NUMBER_MESSAGES[read.problem](label)
          : `${label} must be a positive amount in dollars, e.g. 12.50.`;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    })
    .refine((c) => c > 0, { message: `${label} must be a positive amount.` })
    .refine((c) => c <= max, { message: `${label} is too large.` });

/** A whole number typed with or without thousands separators ("1,250"); "1,00" is refused, not read as 100. */
const wholeNumber = (label: string, message: string, max: number, optional = false) =>
  z
    .string()
    .optional()
    .default("")
    .transform((v, ctx) => {
      if (optional && v.trim() === "") return 0;
      const read = readWholeNumber(v);
      if (read.ok && read.value <= max) return read.value;
      ctx.addIssue({ code: "custom", message: !read.ok && read.problem !== "format" ? NUMBER_MESSAGES.wholeComma(label) : message });
      return z.NEVER;
    });

/** A datetime-local value (YYYY-MM-DDTHH:MM), read as UTC → ISO instant. */
const instant = (label: string) =>
  z
    .string()
    .optional()
    .default("")
    .transform((v) => v.trim())
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v) && !Number.isNaN(Date.parse(`${v}Z`)), {
      message: `${label} must be a date and time (UTC).`,
    })
    .transform((v) => new Date(`${v}Z`).toISOString());

const campaignFields = z.object({
  // Names: one line of plain text (docs/decisions/0287).
  brand: text("Brand", BRAND_MAX).transform(oneLine),
  title: text("Title", TITLE_MAX).transform(oneLine),
  slug: z
    .string()
    .optional()
    .default("")
    .transform((v) => v.trim().toLowerCase())
    .refine((v) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(v) && v.length >= 3 && v.length <= SLUG_MAX, {
      message: `Address must be 3 to ${SLUG_MAX} lower-case letters, digits and single hyphens.`,
    }),
  brief: text("Brief", BRIEF_MAX),
  rate: money("Rate", RATE_MAX_CENTS),
  budget: money("Budget", BUDGET_MAX_CENTS),
  startsAt: instant("Start"),
  endsAt: instant("End"),
  requiredTrackId: z
    .string()
    .optional()
    .default("")
    .transform((v) => v.trim())
    .refine((v) => v === "" || /^[A-Za-z0-9_-]{1,64}$/.test(v), { message: "Choose a published track from the library." })
    .transform((v) => v || null),
  minSubscribers: wholeNumber("Minimum subscribers", "Minimum subscribers must be a whole number of 0 or more.", 9_999_999_999, true),
});

/** The campaign's fields (the end after the start is checked by the module, which names the field). */
export type CampaignFields = z.output<typeof campaignFields>;

const views = wholeNumber("Verified views", "Verified views must be a whole number of 0 or more.", VIEWS_MAX);

export const campaignAdminSchema = z.discriminatedUnion("intent", [
  campaignFields.extend({ intent: z.literal("create") }),
  campaignFields.extend({ intent: z.literal("update"), id }),
  z.object({ intent: z.literal("launch"), id }),
  z.object({ intent: z.literal("end"), id }),
  z.object({ intent: z.literal("settle"), id }),
  z.object({ intent: z.literal("funds_received"), id }),
  z.object({ intent: z.literal("approve"), submissionId: id, views }),
  z.object({ intent: z.literal("views"), submissionId: id, views }),
  z.object({ intent: z.literal("reject"), submissionId: id, reason: text("Reason", REASON_MAX) }),
]);
export type CampaignAdminInput = z.output<typeof campaignAdminSchema>;

/** Joining: on /campaigns and on the public page /campaigns/{slug}, the same fields. */
export const campaignJoinSchema = z.object({
  intent: z.literal("join"),
  campaignId: id,
  accept: checkbox.refine((v) => v, { message: "Accept the campaign terms to join." }),
});

export const campaignParticipateSchema = z.discriminatedUnion("intent", [
  campaignJoinSchema,
  z.object({
    intent: z.literal("submit"),
    campaignId: id,
    url: z
      .string({ message: "Enter the video's link." })
      .trim()
      .min(1, { message: "Enter the video's link." })
      .max(VIDEO_URL_MAX, { message: `The link must be ${VIDEO_URL_MAX} characters or less.` }),
  }),
]);
export type CampaignParticipateInput = z.output<typeof campaignParticipateSchema>;
