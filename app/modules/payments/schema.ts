import { z } from "zod";
import "~/lib/zod-config";
import { isMonth } from "./calendar";
import { centsDown, parseAmount } from "./decimal";

// The money forms (the admin's /admin/payments). Client-safe.
export * from "./messages";

const month = z.string({ message: "Month is required." }).trim().refine(isMonth, { message: "Month must be YYYY-MM." });
const id = z.string({ message: "Missing id." }).trim().min(1, { message: "Missing id." }).max(200, { message: "Invalid id." });

export const REFERENCE_MAX = 100;

const reference = z
  .string({ message: "Reference is required." })
  .trim()
  .min(1, { message: "Reference is required." })
  .max(REFERENCE_MAX, { message: `Reference must be ${REFERENCE_MAX} characters or less.` });

export const REASON_MAX = 500;

const person = z
  .string({ message: "Enter the person's e-mail or creator ID." })
  .trim()
  .min(1, { message: "Enter the person's e-mail or creator ID." })
  .max(254, { message: "E-mail or creator ID must be 254 characters or less." });

const reason = z
  .string({ message: "Reason is required." })
  .trim()
  .min(1, { message: "Reason is required." })
  .max(REASON_MAX, { message: `Reason must be ${REASON_MAX} characters or less.` });

/** "72.5" → 7250 basis points: a share of 0.01 to 100 percent with at most two decimals. */
const sharePercent = z
  .string({ message: "Share is required." })
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, { message: "Share must be a percentage with at most two decimals, e.g. 72.5." })
  .transform((v) => {
    const [whole, frac = ""] = v.split(".");
    return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  })
  .refine((bp) => bp >= 1 && bp <= 10000, { message: "Share must be between 0.01 and 100." });

/** A column of the file by position, or -1 (none). */
const column = z
  .string()
  .trim()
  .optional()
  .default("-1")
  .refine((v) => /^-?\d{1,4}$/.test(v), { message: "Choose one of the file's columns." })
  .transform(Number);

const uploadId = z.string({ message: "Missing upload." }).trim().uuid({ message: "Missing upload." });

/** A positive amount in dollars, exact to the cent: "12.50", "$1,000", "7.5". */
const dollars = z
  .string({ message: "Amount is required." })
  .trim()
  .min(1, { message: "Amount is required." })
  .transform((v, ctx) => {
    const r = parseAmount(v);
    // Whole cents only: "12.5" and "12.500" are fine, "12.345" is not.
    if (!r.ok || (r.value.s > 2 && r.value.n % 10n ** BigInt(r.value.s - 2) !== 0n)) {
      ctx.addIssue({ code: "custom", message: "Amount must be in dollars and cents, such as 12.50." });
      return z.NEVER;
    }
    return Number(centsDown(r.value));
  })
  .refine((c) => c > 0 && c <= 100_000_000, { message: "Amount must be between $0.01 and $1,000,000." });

export const paymentsAdminSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("preview"), month, file: z.unknown() }),
  // The column-mapping step of a file the app does not recognise (decision 0221).
  z.object({
    intent: z.literal("map"),
    month,
    uploadId,
    period: column,
    channel: column,
    creator: column,
    video: column,
    amount: column,
    currency: column,
    person: z.string().trim().max(100, { message: "The ID must be 100 characters or less." }).optional().default(""),
  }),
  z.object({ intent: z.literal("remap"), month, uploadId }),
  z.object({ intent: z.literal("commit"), importId: id, replaces: z.string().trim().max(200).optional().default("") }),
  z.object({ intent: z.literal("discard"), importId: id }),
  z.object({ intent: z.literal("funds_received"), month }),
  z.object({ intent: z.literal("finalize"), month }),
  z.object({ intent: z.literal("mark_paid"), payoutId: id, reference }),
  z.object({ intent: z.literal("mark_batch_paid"), batch: month, reference }),
  z.object({
    intent: z.literal("offer_share"),
    person,
    sharePercent,
    note: z.string().trim().max(200, { message: "Note must be 200 characters or less." }).optional().default(""),
  }),
  z.object({ intent: z.literal("withdraw_offer"), offerId: id }),
  z.object({ intent: z.literal("terminate"), person, reason }),
  z.object({ intent: z.literal("hold"), person, reason }),
  z.object({ intent: z.literal("release_hold"), person }),
  // How a person is paid (decision 0224): outside Stripe with a reason, or back through Stripe.
  z.object({ intent: z.literal("pay_outside"), person, reason }),
  z.object({ intent: z.literal("pay_through_stripe"), person }),
  z.object({ intent: z.literal("send_transfers") }),
  // Retry a payout run's unfinished Stripe payouts (decision 0331).
  z.object({
    intent: z.literal("retry_payouts"),
    batch: z
      .string()
      .trim()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: "Choose a payout run." }),
  }),
  // An adjustment (decision 0223): its token is the entry's id, so a double click adds it once.
  z.object({
    intent: z.literal("adjust"),
    token: z
      .string()
      .trim()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: "Reload the page and try again." }),
    person,
    month,
    direction: z.enum(["credit", "debit"], { message: "Choose credit or debit." }),
    amount: dollars,
    reason,
  }),
]);
export type PaymentsAdminInput = z.infer<typeof paymentsAdminSchema>;

/** The creator's own agreement steps on /payments. Acceptance of a revised share must be express (a ticked box). */
export const agreementSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("give_notice"), confirm: z.literal("yes", { message: "Tick the box to confirm your notice." }) }),
  z.object({ intent: z.literal("withdraw_notice") }),
  z.object({
    intent: z.literal("accept_offer"),
    offerId: id,
    confirm: z.literal("yes", { message: "Tick the box to accept the revised share and the new 12-month term." }),
  }),
  z.object({ intent: z.literal("decline_offer"), offerId: id }),
]);
export type AgreementInput = z.infer<typeof agreementSchema>;

/** Everything the person's /payments page posts: the agreement's steps and the payout account (decision 0224). */
export const paymentsPageSchema = z.discriminatedUnion("intent", [
  ...agreementSchema.options,
  z.object({
    intent: z.literal("connect_payouts"),
    // Needed when the account is first made (Stripe cannot change it later); not when set-up continues.
    country: z.string().trim().max(2).optional().default(""),
  }),
  z.object({ intent: z.literal("payout_dashboard") }),
]);
