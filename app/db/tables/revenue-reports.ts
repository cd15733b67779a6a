import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { createdAt, inList } from "./shared";

// ---------------------------------------------------------------------------------------------
// A revenue report of any size (issue 45 §1, docs/decisions/0334): the file goes to R2 in parts,
// then the RevenueImportWorkflow reads it in byte ranges and sums its rows here, month × channel ×
// video, before the import's usual match → price → stage runs over the sums. Everything but the job
// row is deleted when the job ends (staged, refused or failed).
// ---------------------------------------------------------------------------------------------

// uploading → reading (the workflow's range steps) → staged (a preview to commit), problems (the file's
// problems listed, nothing staged), duplicate (the same file is already staged or live), failed.
export const REVENUE_REPORT_STATUSES = ["uploading", "reading", "staged", "problems", "duplicate", "failed"] as const;

export const revenueReports = sqliteTable(
  "revenue_reports",
  {
    id: text("id").primaryKey(),
    month: text("month").notNull(),
    fileName: text("file_name").notNull(),
    objectKey: text("object_key").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    partBytes: integer("part_bytes").notNull(),
    partCount: integer("part_count").notNull(),
    // The R2 multipart upload while uploading; null once the object is complete.
    uploadId: text("upload_id"),
    status: text("status", { enum: REVENUE_REPORT_STATUSES }).notNull().default("uploading"),
    // What the first range step found: the format, the mapping (JSON) and how papaparse splits the file.
    format: text("format"),
    mapping: text("mapping"),
    columns: text("columns"),
    delimiter: text("delimiter"),
    // Where the next range step starts: a byte offset at a record boundary, and the file lines before it.
    nextOffset: integer("next_offset").notNull().default(0),
    linesBefore: integer("lines_before").notNull().default(0),
    steps: integer("steps").notNull().default(0),
    // The stage's step running now (0350: "stage match 3", "stage price 12"…), for live progress.
    stageStep: text("stage_step"),
    // Live progress.
    rowsRead: integer("rows_read").notNull().default(0),
    rowsMatched: integer("rows_matched").notNull().default(0),
    problemCount: integer("problem_count").notNull().default(0),
    skippedCount: integer("skipped_count").notNull().default(0),
    // Day/month dates seen so far: a part above 12 first (dmy), second (mdy), and the in-month score (period.ts).
    slashDmy: integer("slash_dmy").notNull().default(0),
    slashMdy: integer("slash_mdy").notNull().default(0),
    slashScore: integer("slash_score").notNull().default(0),
    // SHA-256 chained over each range's SHA-256: the file's fingerprint once read to the end.
    chain: text("chain").notNull().default(""),
    fingerprint: text("fingerprint"),
    importId: text("import_id"),
    duplicateOf: text("duplicate_of"),
    // The staged preview (ImportPreview JSON) the admin commits or discards.
    preview: text("preview"),
    error: text("error"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    index("revenue_reports_creator_idx").on(t.createdBy, t.createdAt),
    index("revenue_reports_fingerprint_idx").on(t.fingerprint),
    check("revenue_reports_status_check", inList("status", REVENUE_REPORT_STATUSES)),
  ],
);

export const revenueReportParts = sqliteTable(
  "revenue_report_parts",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => revenueReports.id, { onDelete: "cascade" }),
    partNumber: integer("part_number").notNull(),
    etag: text("etag").notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.partNumber] })],
);

/**
 * The report's rows summed per period, channel, creator and video. `amount_nano` is exact in
 * billionths of a dollar (the finest a row may be written in this path; docs/decisions/0334), an
 * INTEGER the upsert adds to: an overflow would turn it REAL, which the CHECK refuses.
 * `period` is "m" (a row of the imported month) or "s:" and a day/month date as written (its order
 * decided once the whole file is read).
 */
export const revenueReportSums = sqliteTable(
  "revenue_report_sums",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => revenueReports.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    channelId: text("channel_id").notNull(),
    creatorId: text("creator_id").notNull(),
    videoId: text("video_id").notNull(),
    amountNano: integer("amount_nano").notNull(),
    rows: integer("rows").notNull(),
    firstLine: integer("first_line").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.period, t.channelId, t.creatorId, t.videoId] }),
    check("revenue_report_sums_amount_check", sql`typeof(amount_nano) = 'integer' and amount_nano >= 0`),
  ],
);

/** A 106-bit hash of each accepted row's duplicate key, with its line: "Duplicate of line N" across ranges. */
export const revenueReportKeys = sqliteTable(
  "revenue_report_keys",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => revenueReports.id, { onDelete: "cascade" }),
    h1: integer("h1").notNull(),
    h2: integer("h2").notNull(),
    line: integer("line").notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.h1, t.h2] })],
);

/** The report's problems by line, the first REPORT_PROBLEMS_KEPT of them (the count on the report is exact). */
export const revenueReportProblems = sqliteTable(
  "revenue_report_problems",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => revenueReports.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    reason: text("reason").notNull(),
    // 1: a totals row left out (shown as skipped, not as a problem).
    skipped: integer("skipped").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.line] })],
);

// ---------------------------------------------------------------------------------------------
// The stage in slices of people (docs/decisions/0345, 0350): what crosses people goes through these
// work tables between the stage's bounded steps, and they are dropped in slice steps afterwards.
// ---------------------------------------------------------------------------------------------

/** Leaf kinds: a sum of the month matched to its person, a sum of another month, a sum nobody matches. */
export const LEAF_MATCHED = 0;
export const LEAF_OTHER_MONTH = 1;
export const LEAF_UNMATCHED = 2;

/**
 * Each sum of the report as the stage's match step found it (one row per sum, the sums' key, so a
 * retried match step re-inserts the same keys and INSERT OR IGNORE adds nothing): its person
 * (user_id, '' when none), or the problem it is (`problem`, the reason as the admin reads it).
 */
export const revenueReportLeaves = sqliteTable(
  "revenue_report_leaves",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => revenueReports.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    channelId: text("channel_id").notNull(),
    creatorId: text("creator_id").notNull(),
    videoId: text("video_id").notNull(),
    kind: integer("kind").notNull(),
    userId: text("user_id").notNull(),
    problem: text("problem"),
    amountNano: integer("amount_nano").notNull(),
    rows: integer("rows").notNull(),
    firstLine: integer("first_line").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.period, t.channelId, t.creatorId, t.videoId] }),
    index("revenue_report_leaves_person_idx").on(t.reportId, t.kind, t.userId),
  ],
);

/**
 * Each matched person's exact sum (nano) of the report, and its part of the month's one rounding
 * (0220): the cents rounded down and the sub-cent remainder, and `bump` 1 for the people the month's
 * left-over cents go to (largest remainder first, ties by user id — roundMonth's order).
 */
export const revenueReportPeople = sqliteTable(
  "revenue_report_people",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => revenueReports.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    nano: integer("nano").notNull(),
    floorCents: integer("floor_cents").notNull(),
    rem: integer("rem").notNull(),
    leaves: integer("leaves").notNull(),
    // The order the left-over cents go in, as one key: (9,999,999 − rem) in 7 digits, then the user id.
    rankKey: text("rank_key").notNull(),
    bump: integer("bump").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.userId] }), index("revenue_report_people_rank_idx").on(t.reportId, t.rankKey)],
);

/**
 * Parts of a sum that crosses the stage's slices: kind 'c', a clip's cents from one slice of people
 * (key the clip, part the slice, note the clip's video); kind 'r', a referrer's net from one page of
 * referred people (key the referrer, part the page). A retried step replaces its own part.
 */
export const revenueReportTallies = sqliteTable(
  "revenue_report_tallies",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => revenueReports.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    part: text("part").notNull(),
    value: integer("value").notNull(),
    note: text("note"),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.kind, t.key, t.part] })],
);
