import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Growth (issue 18): activity per user per day (written with the session's sliding-expiry write),
// the weekly aggregates the scheduled job precomputes for /user-retention, and the record of
// 'notify' nudges to inactive users (once per user per ISO week). docs/decisions/0170.
// ---------------------------------------------------------------------------------------------

// A user was active on a UTC day (signed in or used the product). At most one row per user and day.
export const userActivityDays = sqliteTable(
  "user_activity_days",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // YYYY-MM-DD (UTC)
    day: text("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("user_activity_days_day_idx").on(t.day, t.userId)],
);

// Weekly active users of an ISO week (UTC): the cohort cells summed by week, written with every snapshot (0250).
export const retentionWeeks = sqliteTable(
  "retention_weeks",
  {
    // ISO week's Monday, YYYY-MM-DD (UTC)
    week: text("week").primaryKey(),
    activeUsers: integer("active_users").notNull(),
    computedAt: createdAt(),
  },
  () => [check("retention_weeks_week_check", sql`week glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'`)],
);

// Cohort cells: of the people who signed up in `cohort` (by source), how many were active (or signed
// up) in the week `weeks_since` weeks later. Recomputed for a year by every snapshot (docs/decisions/0250).
export const retentionCohortCells = sqliteTable(
  "retention_cohort_cells",
  {
    cohort: text("cohort").notNull(),
    source: text("source", { enum: ["direct", "referral", "agency"] }).notNull(),
    weeksSince: integer("weeks_since").notNull(),
    active: integer("active").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.cohort, t.source, t.weeksSince] }),
    check("retention_cohort_cells_source_check", sql`source in ('direct', 'referral', 'agency')`),
    check("retention_cohort_cells_weeks_check", sql`weeks_since >= 0`),
  ],
);

// An inactive user nudged by an admin ('notify': bell and e-mail). One per user per ISO week.
export const retentionNotices = sqliteTable(
  "retention_notices",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // ISO week's Monday, YYYY-MM-DD (UTC), of the sending
    week: text("week").notNull(),
    inactiveDays: integer("inactive_days").notNull(),
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("retention_notices_user_week_unique").on(t.userId, t.week), index("retention_notices_week_idx").on(t.week)],
);
