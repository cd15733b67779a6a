import { z } from "zod";
import "~/lib/zod-config";
import { isMonth } from "./calendar";

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

export const paymentsAdminSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("preview"), month, file: z.unknown() }),
  z.object({ intent: z.literal("commit"), importId: id, replaces: z.string().trim().max(200).optional().default("") }),
  z.object({ intent: z.literal("discard"), importId: id }),
  z.object({ intent: z.literal("funds_received"), month }),
  z.object({ intent: z.literal("finalize"), month }),
  z.object({ intent: z.literal("mark_paid"), payoutId: id, reference }),
  z.object({ intent: z.literal("mark_batch_paid"), batch: month, reference }),
]);
export type PaymentsAdminInput = z.infer<typeof paymentsAdminSchema>;
