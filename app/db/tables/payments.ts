import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, inList, now, updatedAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Payments (issue 14): the earnings ledger in integer cents, shares in basis points. A month's
// revenue arrives as an import: its entries are written while the import is staged (invisible),
// then one guarded update of revenue_months.live_import_id switches it live. docs/decisions/0120.
// ---------------------------------------------------------------------------------------------

export const LEDGER_SOURCE_KINDS = ["music", "campaign", "clip", "referral", "adjustment"] as const;
export const LEDGER_STATUSES = ["estimated", "finalized", "paid"] as const;
export const REVENUE_IMPORT_STATUSES = ["staged", "live", "replaced", "discarded"] as const;
// The shape of the file an import read (issue 29, docs/decisions/0221): our own columns, the YouTube
// content-owner revenue report, or any CSV through a column mapping.
export const REVENUE_FORMATS = ["shortbeat", "youtube", "mapped"] as const;
// pending (gathered on the payout day) → processing (a Stripe transfer was asked for) → paid (Stripe's
// webhook, or an admin for a person paid outside Stripe) or failed (refused or reversed: its entries
// go back to the balance). docs/decisions/0224. A transfer refused for the platform's own balance goes
// back to pending with held_at/held_reason set (0307): it is not the person's failure.
export const PAYOUT_STATUSES = ["pending", "processing", "paid", "failed"] as const;
export const PAYOUT_METHODS = ["stripe", "manual"] as const;
export const PAYOUT_ACCOUNT_STATUSES = ["needs_information", "enabled", "restricted"] as const;

export const revenueImports = sqliteTable(
  "revenue_imports",
  {
    id: text("id").primaryKey(),
    // YYYY-MM (UTC)
    month: text("month").notNull(),
    status: text("status", { enum: REVENUE_IMPORT_STATUSES }).notNull().default("staged"),
    fileName: text("file_name"),
    rowCount: integer("row_count").notNull().default(0),
    entryCount: integer("entry_count").notNull().default(0),
    netCents: integer("net_cents").notNull().default(0),
    amountCents: integer("amount_cents").notNull().default(0),
    shareBp: integer("share_bp").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    wentLiveAt: text("went_live_at"),
    // Typed by REVENUE_FORMATS; no CHECK, so that adding the column needs no rebuild of a table others reference.
    format: text("format", { enum: REVENUE_FORMATS }).notNull().default("shortbeat"),
    // The exact sum of the matched rows as written (decimal text, any number of decimals), and what
    // rounding the month once to the cent left over (exact − net_cents, under half a cent). Decision 0220.
    exactTotal: text("exact_total"),
    roundingRemainder: text("rounding_remainder"),
  },
  (t) => [
    index("revenue_imports_month_idx").on(t.month, t.createdAt),
    // At most one live import per month.
    uniqueIndex("revenue_imports_month_live_unique").on(t.month).where(sql`status = 'live'`),
    check("revenue_imports_status_check", inList("status", REVENUE_IMPORT_STATUSES)),
    check("revenue_imports_month_check", sql`month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'`),
  ],
);

export const revenueMonths = sqliteTable(
  "revenue_months",
  {
    month: text("month").primaryKey(),
    // The import whose entries count; the switch is one guarded update of this column.
    liveImportId: text("live_import_id").references(() => revenueImports.id),
    fundsReceivedAt: text("funds_received_at"),
    fundsReceivedBy: text("funds_received_by").references(() => users.id, { onDelete: "set null" }),
    finalizedAt: text("finalized_at"),
    finalizedBy: text("finalized_by").references(() => users.id, { onDelete: "set null" }),
  },
  () => [
    check("revenue_months_month_check", sql`month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'`),
    check("revenue_months_finalized_check", sql`finalized_at is null or funds_received_at is not null`),
  ],
);

export const payouts = sqliteTable(
  "payouts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    // The payout run: YYYY-MM of the payout day it was gathered on.
    batch: text("batch").notNull(),
    // YYYY-MM-DD: the run's payout date on the calendar (decision 0122); null for runs before it was kept.
    payoutDate: text("payout_date"),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    // The bank's reference (paid outside Stripe) or the Stripe transfer id.
    reference: text("reference"),
    paidAt: text("paid_at"),
    paidBy: text("paid_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // How it is paid: a Stripe transfer to the person's connected account, or outside Stripe (an admin marks it paid).
    method: text("method", { enum: PAYOUT_METHODS }).notNull().default("manual"),
    stripeAccountId: text("stripe_account_id"),
    stripeTransferId: text("stripe_transfer_id"),
    // When the transfer was asked for; when and why it failed.
    sentAt: text("sent_at"),
    failedAt: text("failed_at"),
    failureReason: text("failure_reason"),
    // Held back (still pending) for a problem of the platform's, not the person's: Stripe refused the
    // transfer with balance_insufficient (docs/decisions/0307). Cleared when the transfer goes out.
    heldAt: text("held_at"),
    heldReason: text("held_reason"),
  },
  (t) => [
    // One payout per person per run: the job gathers once however often it runs.
    uniqueIndex("payouts_user_batch_unique").on(t.userId, t.batch),
    uniqueIndex("payouts_transfer_unique").on(t.stripeTransferId).where(sql`stripe_transfer_id is not null`),
    index("payouts_batch_idx").on(t.batch, t.status),
    // A run's figures on /admin/payments, counted from this index alone (no table rows; decision 0333).
    index("payouts_batch_figures_idx").on(t.batch, t.method, t.status, t.heldAt, t.amountCents),
    index("payouts_user_idx").on(t.userId, t.createdAt),
    index("payouts_method_status_idx").on(t.method, t.status),
    check("payouts_status_check", inList("status", PAYOUT_STATUSES)),
    check("payouts_method_check", inList("method", PAYOUT_METHODS)),
    check("payouts_amount_check", sql`amount_cents > 0`),
    check("payouts_paid_check", sql`status <> 'paid' or (reference is not null and paid_at is not null)`),
    check("payouts_failed_check", sql`status <> 'failed' or (failed_at is not null and failure_reason is not null)`),
    check("payouts_stripe_check", sql`method <> 'stripe' or stripe_account_id is not null`),
  ],
);

// Each payout run's figures by method and status, kept as the payouts change (decision 0353): the
// number of payouts, their cents and how many are held. Triggers on payouts write them (migration
// 0041) in the same statement as the change, so every writer (the payout day, the queue, webhooks,
// an admin's "mark paid", a test's raw insert) keeps them exact, and /admin/payments reads a few rows
// instead of a run's 100,000 index entries. A group emptied by changes stays with zero payouts.
export const payoutRunTotals = sqliteTable(
  "payout_run_totals",
  {
    batch: text("batch").notNull(),
    method: text("method", { enum: PAYOUT_METHODS }).notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull(),
    payouts: integer("payouts").notNull().default(0),
    cents: integer("cents").notNull().default(0),
    held: integer("held").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.batch, t.method, t.status] })],
);

// How each person is paid (issue 29, docs/decisions/0224): through their Stripe Connect Express
// account (its id and the status Stripe last reported), or outside Stripe when an admin says so.
export const payoutAccounts = sqliteTable(
  "payout_accounts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id),
    method: text("method", { enum: PAYOUT_METHODS }).notNull().default("stripe"),
    stripeAccountId: text("stripe_account_id"),
    // needs_information (onboarding not finished) / enabled (transfers and payouts on) / restricted.
    status: text("status", { enum: PAYOUT_ACCOUNT_STATUSES }),
    statusReason: text("status_reason"),
    // The time (Stripe's) of the account data last stored: an older webhook never overwrites a newer one.
    syncedAt: text("synced_at"),
    manualReason: text("manual_reason"),
    manualSetBy: text("manual_set_by").references(() => users.id, { onDelete: "set null" }),
    // "Account creation in progress" (docs/decisions/0296): the request that set it is the one that
    // asks Stripe for the person's Express account; others wait for it. Cleared when it ends; a claim
    // older than two minutes is taken over (its request died).
    accountClaim: text("account_claim"),
    accountClaimedAt: text("account_claimed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payout_accounts_stripe_unique").on(t.stripeAccountId).where(sql`stripe_account_id is not null`),
    // The people paid outside Stripe (/admin/payments' list, a few) without reading every account (decision 0349).
    index("payout_accounts_method_idx").on(t.method),
    check("payout_accounts_method_check", inList("method", PAYOUT_METHODS)),
    check("payout_accounts_status_check", sql`status is null or status in ('needs_information', 'enabled', 'restricted')`),
    check("payout_accounts_manual_check", sql`(method = 'manual') = (manual_reason is not null)`),
  ],
);

// Every Stripe webhook event accepted (signature verified), stored once by its id: a replay or
// Stripe's own retry of an event already handled changes nothing. docs/decisions/0225.
export const stripeEvents = sqliteTable(
  "stripe_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    // The connected account of a Connect event (account.updated), else null.
    account: text("account"),
    objectId: text("object_id"),
    // Stripe's time of the event (seconds since the epoch).
    created: integer("created").notNull(),
    receivedAt: text("received_at").notNull().default(now),
    // What it did: "payout paid", "payout failed", "account enabled", "ignored"…
    outcome: text("outcome").notNull(),
  },
  (t) => [index("stripe_events_object_idx").on(t.objectId)],
);

export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    month: text("month").notNull(),
    sourceKind: text("source_kind", { enum: LEDGER_SOURCE_KINDS }).notNull(),
    // The source item: a channel id (music), a campaign, clip or referred user id; '' for a creator-level line.
    sourceId: text("source_id").notNull().default(""),
    // What the source earned this month (net of platform taxes and fees), the person's share, and their part.
    netCents: integer("net_cents").notNull(),
    shareBp: integer("share_bp").notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: LEDGER_STATUSES }).notNull().default("estimated"),
    payoutId: text("payout_id").references(() => payouts.id),
    // The import that wrote it (null for an adjustment made by hand).
    importId: text("import_id").references(() => revenueImports.id),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    // A month, person and source is written once per import.
    uniqueIndex("ledger_entries_import_source_unique").on(t.importId, t.userId, t.month, t.sourceKind, t.sourceId),
    index("ledger_entries_user_month_idx").on(t.userId, t.month),
    index("ledger_entries_month_status_idx").on(t.month, t.status),
    index("ledger_entries_payout_idx").on(t.payoutId),
    check("ledger_entries_source_kind_check", inList("source_kind", LEDGER_SOURCE_KINDS)),
    check("ledger_entries_status_check", inList("status", LEDGER_STATUSES)),
    check("ledger_entries_share_check", sql`share_bp between 0 and 10000`),
    check("ledger_entries_month_check", sql`month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'`),
    check("ledger_entries_paid_check", sql`status <> 'paid' or payout_id is not null`),
  ],
);

// The videos of a statement line (issue 29): an imported line's net revenue and amount per video id
// ('' for rows without one), each rounded once and adding up exactly to the line. They follow their
// entry (deleted with it). docs/decisions/0220.
export const ledgerVideoLines = sqliteTable(
  "ledger_video_lines",
  {
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id, { onDelete: "cascade" }),
    videoId: text("video_id").notNull(),
    netCents: integer("net_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.videoId] })],
);

// Column mappings of revenue files the app does not know (issue 29), remembered per header: the
// next file with the same header is read the same way. docs/decisions/0221.
export const revenueColumnMappings = sqliteTable("revenue_column_mappings", {
  // SHA-256 (hex) of the normalized header.
  headerHash: text("header_hash").primaryKey(),
  // JSON: the header as written; the mapping (column positions, -1 for none).
  columns: text("columns").notNull(),
  mapping: text("mapping").notNull(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});
