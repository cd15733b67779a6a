import { CREATOR_SHARE_PERCENT, GENERIC_LIMIT, PAYOUT_DAY_OF_MONTH, PAYOUT_MINIMUM_USD, SIGNUP_LIMIT, SUSPICIOUS_LIMIT } from "./constants";

// The app settings admins change (docs/decisions/0022-app-settings-in-d1.md): their names, the
// defaults of spec section 9, and the app_settings key of each. Client-safe: the settings page
// shows the defaults, and the platform's settings store reads them.

export type AppSettings = {
  creatorSharePercent: number;
  payoutDayOfMonth: number;
  signupLimitPerHour: number;
  genericLimitPer15Min: number;
  suspiciousLimitPer15Min: number;
  /** Referral bonus in basis points of the referred creator's music earnings (issue 18); 0 = off. */
  referralBonusBp: number;
  /** The smallest payout in whole US dollars: a smaller payable balance carries over (issue 29, decision 0224). */
  payoutMinimumUsd: number;
};

export const DEFAULT_SETTINGS: AppSettings = {
  creatorSharePercent: CREATOR_SHARE_PERCENT,
  payoutDayOfMonth: PAYOUT_DAY_OF_MONTH,
  signupLimitPerHour: SIGNUP_LIMIT.maxAttempts,
  genericLimitPer15Min: GENERIC_LIMIT.maxAttempts,
  suspiciousLimitPer15Min: SUSPICIOUS_LIMIT.maxAttempts,
  referralBonusBp: 0,
  payoutMinimumUsd: PAYOUT_MINIMUM_USD,
};

/** The app_settings row key of each setting. */
export const SETTING_KEYS: Record<keyof AppSettings, string> = {
  creatorSharePercent: "creator_share_percent",
  payoutDayOfMonth: "payout_day_of_month",
  signupLimitPerHour: "signup_limit_per_hour",
  genericLimitPer15Min: "generic_limit_per_15_min",
  suspiciousLimitPer15Min: "suspicious_limit_per_15_min",
  referralBonusBp: "referral_bonus_bp",
  payoutMinimumUsd: "payout_minimum_usd",
};
