// Business constants of product-spec.md section 9. Copied exactly; change them here only.
export const CREATOR_SHARE_PERCENT = 70;
export const PAYOUT_DAY_OF_MONTH = 18;
/** The smallest payout (whole USD): a Stripe payout costs a fixed fee, so tiny balances carry over (decision 0224). */
export const PAYOUT_MINIMUM_USD = 10;
export const CLIPPER_DEFAULT_SHARE_PERCENT = 70;
/** The same default split in basis points, as stored. */
export const CLIPPER_DEFAULT_SHARE_BPS = CLIPPER_DEFAULT_SHARE_PERCENT * 100;
export const CREATOR_CLIP_SHARE_PERCENT = 30;
export const TERM_MONTHS = 12;
export const TERMINATION_NOTICE_DAYS = 90;
export const CAMPAIGN_PAYOUT_MAX_DAYS = 60;
export const AGREEMENT_EFFECTIVE_DATE = "31 August 2025";

export const SIGNUP_LIMIT = { maxAttempts: 15, windowMs: 60 * 60 * 1000 };
export const GENERIC_LIMIT = { maxAttempts: 5, windowMs: 900_000 };
export const SUSPICIOUS_LIMIT = { maxAttempts: 10, windowMs: 15 * 60 * 1000 };

export const PASSWORD_MIN_LENGTH = 8;
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
export const SANITIZER_CAP = 1000;

export const PROFILE_POLL_MS = 30_000;
export const APPROVAL_CHECK_DELAY_MS = 100;
export const BAN_SIGNOUT_DELAY_MS = 1_000;
export const AUTH_LOAD_TIMEOUT_MS = 15_000;
export const LOADING_HELP_MS = 10_000;
export const ADMIN_GUARD_DELAY_MS = 400;
export const SIGNED_VIDEO_URL_SECONDS = 3600;
export const NOTIFICATION_BADGE_CAP = 9;
export const MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_COOKIE_MAX_AGE_S = 60 * 60 * 24 * 7;
export const SIDEBAR_COOKIE_NAME = "sidebar_state";
export const FAVORITES_KEY_PREFIX = "shortbeat_favorites_";
