import { z } from "zod";
import { many } from "~/lib/forms";
import { GROWTH_MESSAGES as M, INACTIVE_DAY_CHOICES, RETENTION_WEEK_RANGES } from "./messages";

export { INACTIVE_DAY_CHOICES, RETENTION_WEEK_RANGES };

// The growth pages' forms and query strings (issue 18). Client-safe.

export const INACTIVE_PAGE_SIZE = 50;

const oneOf = <T extends string>(values: readonly T[], fallback: T) =>
  z
    .string()
    .optional()
    .transform((v) => (values.includes(v as T) ? (v as T) : fallback));

const intIn = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => {
      const n = v && /^\d{1,6}$/.test(v) ? Number(v) : fallback;
      return n >= min && n <= max ? n : fallback;
    });

/** /user-retention's query string: anything out of range falls back to the default (never an error). */
export const retentionQuerySchema = z.object({
  weeks: intIn(4, 52, 12),
  source: oneOf(["all", "direct", "referral", "agency"] as const, "all"),
  inactiveDays: intIn(1, 365, 30),
  status: oneOf(["all", "pending", "approved", "rejected"] as const, "all"),
  page: intIn(1, 10_000, 1),
});
export type RetentionQuery = z.infer<typeof retentionQuerySchema>;

export const MAX_NOTIFY = 200;

const notifyFields = z.object({
  intent: z.literal("notify"),
  inactiveDays: z
    .string({ message: "Choose the number of days." })
    .regex(/^\d{1,3}$/, { message: "Days must be a whole number." })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 365, { message: "Days must be between 1 and 365." }),
  userIds: many(z.string().uuid({ message: M.pickSomeone }))
    .refine((ids) => ids.length > 0, { message: M.pickSomeone })
    .refine((ids) => ids.length <= MAX_NOTIFY, { message: M.tooMany }),
});
export type NotifyInput = z.infer<typeof notifySchema>;

/** /user-retention's forms: 'notify' inactive users, or 'refresh' the precomputed figures now. */
export const retentionActionSchema = z.discriminatedUnion("intent", [notifyFields, z.object({ intent: z.literal("refresh") })]);
export const notifySchema = notifyFields;
