import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, inList, updatedAt } from "./shared";
import { users } from "./accounts";
import { musicTracks } from "./music";

// ---------------------------------------------------------------------------------------------
// Campaigns (issue 15): paid promotions. A campaign is 'draft' until an admin launches it
// ('launched'); live and ended follow from starts_at/ends_at (or ended_at, an early end) when read;
// 'settled' once an admin writes its approved amounts to the ledger. spent_cents is the sum of the
// approved submissions' amounts, kept in the same batch as every review (CHECK: never over budget).
// docs/decisions/0140.
// ---------------------------------------------------------------------------------------------

export const CAMPAIGN_STATUSES = ["draft", "launched", "settled"] as const;
export const CAMPAIGN_PLATFORMS = ["youtube", "tiktok", "instagram"] as const;
export const CAMPAIGN_SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;
/** What freed the budget that raised a capped submission: another one rejected, its views lowered, or a larger budget. */
export const CAMPAIGN_RAISE_CAUSES = ["rejected", "views", "budget"] as const;

export const campaigns = sqliteTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    brand: text("brand").notNull(),
    title: text("title").notNull(),
    brief: text("brief").notNull(),
    // Per 1,000 verified views, for submissions made from now on (each submission keeps its own rate).
    rateCents: integer("rate_cents").notNull(),
    budgetCents: integer("budget_cents").notNull(),
    spentCents: integer("spent_cents").notNull().default(0),
    // ISO instants (UTC): live from starts_at (inclusive) to ends_at (exclusive).
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    requiredTrackId: text("required_track_id").references(() => musicTracks.id, { onDelete: "set null" }),
    minSubscribers: integer("min_subscribers").notNull().default(0),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    launchedAt: text("launched_at"),
    // An admin's early end (otherwise ends_at decides).
    endedAt: text("ended_at"),
    // When the participants were told it ended (the daily job or the early end), so they are told once.
    endNotifiedAt: text("end_notified_at"),
    settledAt: text("settled_at"),
    settledBy: text("settled_by").references(() => users.id, { onDelete: "set null" }),
    fundsReceivedAt: text("funds_received_at"),
    fundsReceivedBy: text("funds_received_by").references(() => users.id, { onDelete: "set null" }),
    // YYYY-MM-DD: the first payout date after settled + funds received.
    payableOn: text("payable_on"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("campaigns_slug_unique").on(t.slug),
    index("campaigns_status_ends_idx").on(t.status, t.endsAt),
    check("campaigns_status_check", inList("status", CAMPAIGN_STATUSES)),
    check("campaigns_rate_check", sql`rate_cents > 0`),
    check("campaigns_budget_check", sql`budget_cents > 0 and spent_cents between 0 and budget_cents`),
    check("campaigns_dates_check", sql`ends_at > starts_at`),
    check("campaigns_min_subscribers_check", sql`min_subscribers >= 0`),
    check("campaigns_settled_check", sql`status <> 'settled' or settled_at is not null`),
  ],
);

// A creator's opt-in: the campaign terms (payout up to 60 days after the end) accepted once.
export const campaignParticipants = sqliteTable(
  "campaign_participants",
  {
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    termsAcceptedAt: text("terms_accepted_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] }), index("campaign_participants_user_idx").on(t.userId, t.createdAt)],
);

export const campaignSubmissions = sqliteTable(
  "campaign_submissions",
  {
    id: text("id").primaryKey(),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    platform: text("platform", { enum: CAMPAIGN_PLATFORMS }).notNull(),
    // platform + ':' + the platform's video id: one submission per video, whichever campaign.
    videoKey: text("video_key").notNull(),
    // The YouTube channel the provider named for the video (null for other platforms).
    channelId: text("channel_id"),
    // Why the admin must check ownership by hand (decision 0301), e.g. "Needs review: Instagram not
    // linked"; null when the platform confirmed the video is the creator's.
    ownershipReview: text("ownership_review"),
    // The campaign's rate when the submission was made: a later rate change does not touch it.
    rateCents: integer("rate_cents").notNull(),
    status: text("status", { enum: CAMPAIGN_SUBMISSION_STATUSES }).notNull().default("pending"),
    views: integer("views").notNull().default(0),
    // The estimated payout: views / 1,000 × rate, capped by the budget left when it was set.
    amountCents: integer("amount_cents").notNull().default(0),
    reason: text("reason"),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: text("reviewed_at"),
    // The last time freed budget raised this capped submission (decision 0143), from what amount
    // and why, so the creator is told (decision 0245). Cleared when the submission is reviewed again.
    raisedAt: text("raised_at"),
    raisedFromCents: integer("raised_from_cents"),
    raiseCause: text("raise_cause", { enum: CAMPAIGN_RAISE_CAUSES }),
    // The views provider (decision 0266): the last views it read and when; an admin's views
    // override pins the views (when), and the daily job then leaves them.
    providerViews: integer("provider_views"),
    viewsCheckedAt: text("views_checked_at"),
    viewsPinnedAt: text("views_pinned_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("campaign_submissions_video_unique").on(t.videoKey),
    index("campaign_submissions_campaign_idx").on(t.campaignId, t.status, t.createdAt),
    index("campaign_submissions_user_idx").on(t.userId, t.createdAt),
    check("campaign_submissions_status_check", inList("status", CAMPAIGN_SUBMISSION_STATUSES)),
    check("campaign_submissions_platform_check", inList("platform", CAMPAIGN_PLATFORMS)),
    check("campaign_submissions_amounts_check", sql`views >= 0 and amount_cents >= 0 and rate_cents > 0`),
    check("campaign_submissions_approved_check", sql`status = 'approved' or amount_cents = 0`),
  ],
);
