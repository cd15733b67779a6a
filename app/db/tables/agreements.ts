import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, inList, updatedAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Payments, phase 2 (issue 14): the Creator Agreement's state per person (notice, termination for
// cause, a hold on payouts) and the admin's revised-share offers. docs/decisions/0127-0130.
// ---------------------------------------------------------------------------------------------

export const AGREEMENT_STATUSES = ["active", "notice", "terminated"] as const;
export const SHARE_OFFER_STATUSES = ["offered", "accepted", "declined", "withdrawn"] as const;

export const paymentAgreements = sqliteTable(
  "payment_agreements",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    // active; notice (the creator gave notice: ends_on is the end of the term it takes effect at);
    // terminated (for cause by an admin, with immediate effect: ends_on is that day).
    status: text("status", { enum: AGREEMENT_STATUSES }).notNull().default("active"),
    // YYYY-MM-DD: the start of the current run of 12-month terms when an accepted revised share
    // started a new one; null → the first channel link (profiles.term_started_at).
    termStart: text("term_start"),
    noticeGivenAt: text("notice_given_at"),
    // YYYY-MM-DD (UTC): the last day the account earns.
    endsOn: text("ends_on"),
    terminatedAt: text("terminated_at"),
    terminatedBy: text("terminated_by").references(() => users.id, { onDelete: "set null" }),
    terminationReason: text("termination_reason"),
    // An admin's hold: the payout-day job leaves the person's balance where it is.
    heldAt: text("held_at"),
    heldBy: text("held_by").references(() => users.id, { onDelete: "set null" }),
    holdReason: text("hold_reason"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payment_agreements_status_idx").on(t.status, t.endsOn),
    check("payment_agreements_status_check", inList("status", AGREEMENT_STATUSES)),
    check("payment_agreements_ends_check", sql`(status = 'active') = (ends_on is null)`),
    check("payment_agreements_reason_check", sql`status <> 'terminated' or termination_reason is not null`),
    check("payment_agreements_hold_check", sql`(held_at is null) = (hold_reason is null)`),
  ],
);

export const shareOffers = sqliteTable(
  "share_offers",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    shareBp: integer("share_bp").notNull(),
    note: text("note"),
    status: text("status", { enum: SHARE_OFFER_STATUSES }).notNull().default("offered"),
    offeredBy: text("offered_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    respondedAt: text("responded_at"),
    // Set on acceptance: the first month (YYYY-MM) the share applies to, and the new term's start (YYYY-MM-DD).
    effectiveMonth: text("effective_month"),
    termStart: text("term_start"),
  },
  (t) => [
    // One open offer per person.
    uniqueIndex("share_offers_open_unique").on(t.userId).where(sql`status = 'offered'`),
    index("share_offers_user_idx").on(t.userId, t.status, t.effectiveMonth),
    check("share_offers_status_check", inList("status", SHARE_OFFER_STATUSES)),
    check("share_offers_share_check", sql`share_bp between 1 and 10000`),
    check("share_offers_accepted_check", sql`status <> 'accepted' or (effective_month is not null and term_start is not null)`),
  ],
);
