// Types the growth pages share with the server (issue 18). Client-safe.

export const SOURCES = ["direct", "referral", "agency"] as const;
export type Source = (typeof SOURCES)[number];

export type ReferralStage = "pending" | "approved" | "rejected" | "inactive" | "channel_linked" | "earning";

export type ReferralsPage = {
  code: string;
  link: string;
  counts: { signedUp: number; approved: number; channelLinked: number; earning: number };
  people: { id: string; name: string; stage: ReferralStage; joinedAt: string }[];
  /** More referred people than the list shows. */
  more: number;
  bonus: { bp: number; earnedCents: number; upcomingCents: number };
};

export type FunnelStep = {
  key: string;
  label: string;
  count: number /** Of the step before, in %, one decimal; null for the first. */;
  conversion: number | null;
};

export type CohortRow = {
  cohort: string;
  label: string;
  size: number /** People active per week since sign-up and their % of the cohort; null for weeks not reached yet. */;
  cells: { weeksSince: number; active: number | null; pct: number | null }[];
};

export type InactiveUser = {
  id: string;
  name: string;
  email: string;
  status: string;
  source: Source;
  joinedAt: string;
  lastActive: string | null;
  notifiedThisWeek: boolean;
};

export type RetentionPage = {
  filters: { weeks: number; source: "all" | Source; inactiveDays: number; status: "all" | "pending" | "approved" | "rejected"; page: number };
  currentWeek: string;
  signups: { week: string; label: string; direct: number; referral: number; agency: number; total: number }[];
  funnel: FunnelStep[];
  sources: { source: Source; signedUp: number; approved: number; channelLinked: number; earning: number }[];
  wau: { week: string; label: string; active: number }[];
  cohorts: CohortRow[];
  inactive: { total: number; rows: InactiveUser[]; pageSize: number };
  /** When the snapshot every figure reads was taken; null before the first one. */
  computedAt: string | null;
};
