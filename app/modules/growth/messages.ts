// The growth pages' strings (issue 18). Client-safe.

export const GROWTH_MESSAGES = {
  copied: "Link copied",
  copiedText: "Your referral link is on the clipboard.",
  notifySent: (n: number) => `${n} ${n === 1 ? "person was" : "people were"} notified.`,
  notifySkipped: (n: number) => `${n} already notified this week.`,
  notifyNone: "Everyone selected was already notified this week, or is active again.",
  notifyTitle: "We miss you",
  notifyContent: (app: string) => `It has been a while since you last used ${app}. New tracks and campaigns are waiting for you.`,
  pickSomeone: "Choose at least one person to notify.",
  tooMany: "Notify at most 200 people at a time.",
};

export const SOURCE_LABELS = { direct: "Direct", referral: "Referral", agency: "Agency" } as const;

export const STAGE_LABELS = {
  pending: "Pending approval",
  approved: "Approved",
  rejected: "Not approved",
  inactive: "Inactive",
  channel_linked: "Channel linked",
  earning: "Earning",
} as const;

// The page's choices (client-safe; the schema checks them).
export const RETENTION_WEEK_RANGES = [12, 26, 52] as const;
export const INACTIVE_DAY_CHOICES = [7, 14, 30, 60, 90] as const;
