// What every table file uses: the timestamp defaults, boolean columns, CHECK lists, and the
// status lists the spec gives for accounts (section 3).
import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

export const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
export const createdAt = () => text("created_at").notNull().default(now);
export const updatedAt = () => text("updated_at").notNull().default(now);
export const bool = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);

export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export const AGENCY_STATUSES = ["active", "inactive"] as const;
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export const MANUAL_SUBMISSION_STATUSES = ["pending", "verification_submitted", "verified", "rejected"] as const;
export const ONE_TIME_TOKEN_PURPOSES = ["email_verification", "password_reset"] as const;

export const inList = (column: string, values: readonly string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);
