import { formatCount } from "~/lib/format";

// A revenue report of any size (issue 45 §1, docs/decisions/0334): its limits and messages, shared
// by the server and the admin's uploader. Client-safe.

const MIB = 1024 * 1024;
/** Parts of the R2 multipart upload: equal, 8 MiB (R2 wants at least 5 MiB for all but the last). */
export const REPORT_PART_BYTES = 8 * MIB;
/** The largest report: 4 GiB, 512 parts (a network's month is about 1 GB). */
export const MAX_REPORT_BYTES = 4 * 1024 * MIB;
/** Problems kept per report (the count is exact); the download lists these. */
export const REPORT_PROBLEMS_KEPT = 10_000;

export const REPORT_MESSAGES = {
  fileRequired: "Choose the revenue report to upload.",
  tooLarge: `The report is larger than ${formatCount(MAX_REPORT_BYTES / MIB / 1024)} GB.`,
  notCsv: "The report must be a CSV file (.csv, .txt or .tsv).",
  badPart: "A part of the upload has the wrong size. Choose the file again to resume.",
  notFound: "This upload is not found.",
  notUploading: "This upload is finished or was cancelled.",
  partsMissing: "Some parts of the file have not arrived yet. Choose the file again to resume.",
  needsMapping:
    "The app does not recognise this report's columns. Map them once with a small part of the file (its header and a few rows) in the form above, then upload the full report: files with the same header are read the same way.",
  needsPerson: "A report read through a column mapping must name a channel id or creator id on every row.",
  recordTooLong: "A row of the report is longer than 8 MB, or a quoted field is never closed.",
  duplicate: (when: string) => `This file was already imported (${when}). Nothing was imported twice.`,
  problems: (count: number) =>
    `${formatCount(count)} ${count === 1 ? "row has a problem" : "rows have problems"}: nothing was staged. Fix the file and upload it again.`,
} as const;
