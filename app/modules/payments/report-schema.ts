import { z } from "zod";
import { MAX_REPORT_BYTES, REPORT_MESSAGES as R } from "./report-messages";

// The revenue report upload's forms (issue 45 §1, docs/decisions/0334): start (month, name, size and
// the first part as `chunk`), part, complete, abort. Client-safe.

const reportId = z.string().uuid();
const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: "Choose a month." });
const chunk = z.instanceof(File, { message: R.fileRequired });

export const reportUploadSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("start"),
    month,
    name: z.string().trim().min(1, { message: R.fileRequired }).max(200),
    size: z.coerce.number().int().min(1, { message: R.fileRequired }).max(MAX_REPORT_BYTES, { message: R.tooLarge }),
    chunk,
  }),
  z.object({ intent: z.literal("part"), reportId, partNumber: z.coerce.number().int().min(1).max(10_000), chunk }),
  z.object({ intent: z.literal("complete"), reportId }),
  z.object({ intent: z.literal("abort"), reportId }),
]);
