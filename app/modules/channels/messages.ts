// Channels: limits, toast strings (product-spec.md sections 7 and 8, word for word) and status labels,
// without zod, for the pages' first load (docs/decisions/0086). ./schema.ts re-exports them.

export const CHANNEL_NAME_MAX = 100;

export const CHANNEL_URL_MAX = 500;

export const REJECTION_REASON_MAX = 500;

export const CHANNEL_TOASTS = {
  authFailed: { title: "Authorization failed", description: "YouTube authorization was cancelled or failed" },
  notConfigured: "YouTube OAuth is not configured properly. Please contact support.",
  connectedTitle: "Channel connected!",
  connected: (title: string) => `Successfully connected ${title}`,
  connectFailedTitle: "Failed to connect channel",
  unknownError: "Unknown error",
  disconnected: { title: "Channel disconnected", description: "YouTube channel has been removed from your account" },
  disconnectFailedTitle: "Failed to disconnect channel",
  updated: { title: "Channel updated", description: "Channel data has been refreshed" },
  refreshFailedTitle: "Failed to refresh channel",
  loadChannelsFailedTitle: "Failed to load channels",
  loadSubmissionsFailedTitle: "Failed to load submissions",
  submitted: { title: "Submitted", description: "Your channel has been submitted." },
  submitFailedTitle: "Submit failed",
  verificationSubmitted: { title: "Submitted for verification", description: "We will review shortly." },
  actionFailedTitle: "Action failed",
  notAuthenticated: "Not authenticated",
  /** Spec section 8, 'Server rate limit': the refresh and submission limits say this, not the form's failure title. */
  rateLimited: { title: "Rate limit exceeded", description: "Please wait before trying again." },
  duplicateSubmission: "You have already submitted this channel. It is listed under Your submissions.",
} as const;

export const SUBMISSION_STATUS_LABELS: Record<string, string> = {
  pending: "Pending",
  verification_submitted: "Under review",
  verified: "Verified",
  rejected: "Rejected",
};

// TikTok and Instagram handles (decision 0265).
export type SocialPlatform = "tiktok" | "instagram";
export const SOCIAL_LABELS: Record<SocialPlatform, string> = { tiktok: "TikTok", instagram: "Instagram" };
export const HANDLE_MAX = 30;
export const HANDLE_MESSAGES = {
  format: (label: string) => `Enter your ${label} handle: up to ${HANDLE_MAX} letters, numbers, dots or underscores (the @ is optional).`,
  taken: (label: string) => `This ${label} handle is already declared by another Shortbeat account. If it is yours, contact support.`,
  saved: { title: "Handles saved", description: "Link your TikTok and Instagram accounts above to have your videos checked." },
  failedTitle: "Handles not saved",
} as const;
