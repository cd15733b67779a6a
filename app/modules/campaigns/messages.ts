import { formatCents } from "~/modules/payments/money";
import { formatCount } from "~/lib/format";

// What the campaign screens say. Client-safe. The spec leaves campaign messages to us
// (section 8: "Messages for errors of the … campaign … areas: not shown").

export const CAMPAIGN_MESSAGES = {
  /** The bell notice of a raised submission (decision 0245). */
  raisedNotice: (title: string, amount: string, from: string, cause: RaiseCause) =>
    `Your video for "${title}" now has an estimated payout of ${amount} (was ${from}): ${RAISE_CAUSE_TEXT[cause]}.`,
  notFound: "Campaign not found.",
  notLive: "This campaign is not live: it has ended or has not started yet.",
  notJoined: "Join the campaign before submitting videos.",
  termsRequired: "Accept the campaign terms to join.",
  alreadyJoined: "You have already joined this campaign.",
  tooFewSubscribers: (min: number) => `This campaign needs a linked channel with at least ${formatCount(min)} subscribers.`,
  badUrl: "Enter the link of a video on YouTube, TikTok or Instagram.",
  duplicateVideo: "This video has already been submitted.",
  youtubeNotLinked: "Link your YouTube channel on the Channels page before submitting YouTube videos.",
  youtubeNotYours: "This video is not on one of your linked YouTube channels.",
  youtubeUnknown: "YouTube has no public video at this link.",
  youtubeUnavailable: "YouTube could not be reached to check the video. Nothing was submitted: try again in a moment.",
  // TikTok / Instagram ownership (decisions 0299, 0300, 0301): asked with the creator's linked account.
  socialNotYours: (label: string, account: string | null) =>
    `This ${label} video is not one of the posts of your linked ${label} account${account ? ` ${account}` : ""}. Only your own videos can be submitted.`,
  /** The review note of a TikTok / Instagram submission whose ownership could not be checked (0301). */
  needsReviewNotLinked: (label: string) => `Needs review: ${label} not linked`,
  submittedForReview: (label: string) =>
    `Submitted. An admin will check that it is yours, because your ${label} account is not linked: link it on the Channels page to have your next videos checked at once.`,
  youtubeQuotaPaused: "YouTube checks are paused until YouTube's daily quota resets (midnight Pacific Time). Nothing was submitted: try again tomorrow.",
  slugTaken: "Another campaign already uses this address.",
  draftOnly: "Only a draft can be launched.",
  launchEnded: "The end date has passed: move it later before launching.",
  notEditable: "An ended or settled campaign can no longer be edited.",
  slugLocked: "The address of a launched campaign cannot change.",
  budgetBelowSpent: (spent: number) => `The budget cannot be less than the ${formatCents(spent)} already approved.`,
  cannotEnd: "Only a live or scheduled campaign can be ended early.",
  notEnded: "A campaign is settled after it ends.",
  pendingLeft: "Approve or reject every pending submission before settling.",
  settledAlready: "This campaign is already settled.",
  fundsAlready: "The brand's funds are already marked as received.",
  fundsDraft: "A draft has no funds to receive.",
  submissionNotFound: "Submission not found.",
  frozen: "The campaign is settled: its views and amounts are frozen.",
  reviewedAlready: "This submission has already been reviewed.",
  notApproved: "Only an approved submission's views can be updated.",
  rejectedAlready: "This submission is already rejected.",
  changed: "The campaign changed while you were settling it. Nothing was written: check the amounts and settle again.",
  trackUnknown: "Choose a published track from the library.",
} as const;

/** Toast titles per intent. */
export const CAMPAIGN_TITLES = {
  join: "Could not join",
  submit: "Could not submit",
  create: "Could not create the campaign",
  update: "Could not save the campaign",
  launch: "Could not launch",
  end: "Could not end the campaign",
  settle: "Could not settle",
  funds_received: "Could not mark funds received",
  approve: "Could not approve",
  views: "Could not update the views",
  reject: "Could not reject",
} as const;

/** The confirm step of the admin's weighty transitions (launch, end early, settle): the dialog's button and text. */
export const CAMPAIGN_CONFIRM = {
  launch: {
    label: "Launch campaign",
    danger: false,
    text: "The campaign's public page opens and creators can join it from its start date. Its address cannot change after launch.",
  },
  end: {
    label: "End campaign now",
    danger: true,
    text: "The campaign stops taking submissions now and every participant is told. This cannot be undone.",
  },
  settle: {
    label: "Settle campaign",
    danger: false,
    text: "The views freeze and every approved amount is written to the ledger as a campaign entry. This cannot be undone.",
  },
} as const;
export type CampaignConfirm = keyof typeof CAMPAIGN_CONFIRM;

export const SUBMISSION_STATUS_LABELS = { pending: "Pending review", approved: "Approved", rejected: "Rejected" } as const;

/** The campaign terms a creator accepts when joining (recorded once, with the time). */
export const CAMPAIGN_TERMS =
  "I accept the campaign terms: payout is per 1,000 verified views at the rate in force when I submit, up to the campaign budget, and is made up to 60 days after the campaign ends.";

// Field limits (client-safe; the schema enforces them).
export const BRAND_MAX = 100;
export const TITLE_MAX = 120;
export const BRIEF_MAX = 4000;
export const SLUG_MAX = 60;
export const REASON_MAX = 500;
/** $100,000 per 1,000 views / $10 million budget: far above any real campaign, far below overflow. */
export const RATE_MAX_CENTS = 10_000_000;
export const BUDGET_MAX_CENTS = 1_000_000_000;
export const VIEWS_MAX = 10_000_000_000;

/** What freed the budget that raised a capped submission (decision 0245). */
export type RaiseCause = "rejected" | "views" | "budget";

/** Why a submission's estimated payout went up, in the creator's words. */
export const RAISE_CAUSE_TEXT: Record<RaiseCause, string> = {
  rejected: "budget freed up when another submission was rejected",
  views: "budget freed up when another submission's verified views were lowered",
  budget: "the campaign's budget was increased",
};
