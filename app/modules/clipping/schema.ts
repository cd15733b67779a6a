import { z } from "zod";
import { checkbox } from "~/lib/forms";
import { isValidEmail } from "~/modules/accounts/schema";
import { NUMBER_MESSAGES, readWholeNumber } from "~/lib/numbers";
import { oneLine, sanitizeText } from "~/lib/sanitize";
import { CLIP_PLATFORM_LABELS, CLIP_URL_MAX, CLIPPING_MESSAGES as M, MAX_SOURCE_BYTES, MAX_VIEWS, SOURCE_NAME_MAX } from "./messages";

export * from "./messages";

// Forms of /clipping and its upload route. The browser validates with them too; the actions are
// the authority.

const id = z.string().trim().uuid({ message: "Not found." });

const name = z
  .string()
  .optional()
  .default("")
  .transform((v) => sanitizeText(v).trim())
  .pipe(z.string().min(1, { message: M.nameRequired }).max(SOURCE_NAME_MAX, { message: M.nameTooLong }))
  // One line of plain text (docs/decisions/0287).
  .transform(oneLine);

const platform = z.enum(Object.keys(CLIP_PLATFORM_LABELS) as [keyof typeof CLIP_PLATFORM_LABELS, ...(keyof typeof CLIP_PLATFORM_LABELS)[]], {
  message: M.unsupportedPlatform,
});

/** A share typed as a percent (70, 72.5): basis points, 0..10 000. */
const sharePercent = z
  .string()
  .trim()
  .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v), { message: M.shareRange })
  .transform((v) => Math.round(Number(v) * 100))
  .refine((bps) => bps >= 0 && bps <= 10_000, { message: M.shareRange });

export const clippingActionSchema = z.discriminatedUnion("intent", [
  // Invitations (docs/decisions/0205): the code, or the whole link pasted.
  z.object({
    intent: z.literal("accept-invite"),
    code: z.string({ message: M.invitationCodeRequired }).trim().min(1, { message: M.invitationCodeRequired }).max(500, { message: M.invitationInvalid }),
    acceptClipperAgreement: checkbox,
  }),
  z.object({ intent: z.literal("dismiss-invite") }),
  z.object({
    intent: z.literal("create-invitation"),
    email: z
      .string()
      .optional()
      .default("")
      .transform((v) => v.trim().toLowerCase())
      .refine((v) => v === "" || isValidEmail(v), { message: M.emailInvalid }),
  }),
  z.object({ intent: z.literal("withdraw-invitation"), invitationId: id }),
  z.object({ intent: z.literal("approve-clipper"), invitationId: id }),
  z.object({ intent: z.literal("decline-clipper"), invitationId: id }),
  z.object({ intent: z.literal("revoke"), linkId: id }),
  z.object({ intent: z.literal("rename"), sourceId: id, name }),
  z.object({ intent: z.literal("delete"), sourceId: id }),
  z.object({
    intent: z.literal("submit-clip"),
    linkId: id,
    platform,
    url: z.string().trim().min(1, { message: M.urlRequired }).max(CLIP_URL_MAX, { message: M.unsupportedPlatform }),
    sourceId: z.string().trim().uuid({ message: M.sourceRequired }),
  }),
  z.object({ intent: z.literal("review-clip"), clipId: id, decision: z.enum(["approve", "reject"]) }),
  z.object({ intent: z.literal("request-removal"), clipId: id }),
  z.object({ intent: z.literal("mark-removed"), clipId: id }),
  z.object({ intent: z.literal("request-split"), linkId: id, sharePercent }),
  z.object({ intent: z.literal("answer-split"), requestId: id, decision: z.enum(["approve", "decline"]) }),
  z.object({
    intent: z.literal("set-views"),
    clipId: id,
    // "1,250" is 1250; "1,00" is refused, never read as 100 (docs/decisions/0203).
    views: z.string().transform((v, ctx) => {
      const read = readWholeNumber(v);
      if (read.ok && read.value <= MAX_VIEWS) return read.value;
      ctx.addIssue({ code: "custom", message: !read.ok && read.problem !== "format" ? NUMBER_MESSAGES.wholeComma("Views") : M.viewsRange });
      return z.NEVER;
    }),
  }),
]);
export type ClippingAction = z.infer<typeof clippingActionSchema>;

const size = z.coerce
  .number({ message: M.fileRequired })
  .int({ message: M.fileRequired })
  .min(1, { message: M.empty })
  .max(MAX_SOURCE_BYTES, { message: M.tooLarge });

/** The upload route: start (with the first part), one part, complete, abort. Parts travel as the form's `chunk` file. */
export const uploadActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start"), name, size, chunk: z.instanceof(File, { message: M.fileRequired }) }),
  z.object({
    intent: z.literal("part"),
    sourceId: id,
    partNumber: z.coerce.number().int().min(1).max(10_000),
    chunk: z.instanceof(File, { message: M.fileRequired }),
  }),
  z.object({ intent: z.literal("complete"), sourceId: id }),
  z.object({ intent: z.literal("abort"), sourceId: id }),
]);
export type UploadAction = z.infer<typeof uploadActionSchema>;
