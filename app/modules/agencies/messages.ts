import { titleForField } from "~/modules/accounts/messages";
// Agencies: messages, slug rules and limits, without zod, for the pages' first load
// (docs/decisions/0086). ./schema.ts re-exports them.

/** The agency helper messages of spec section 8, word for word. */
export const AGENCY_MESSAGES = {
  fetch: "Failed to fetch agencies",
  create: "Failed to create agency",
  update: "Failed to update agency",
  addUser: "Failed to add user to agency",
  token: "Failed to generate signup token",
} as const;

export const SLUG_MIN = 3;

export const SLUG_MAX = 40;

export const DESCRIPTION_MAX = 1000;

/**
 * First path segments the app itself uses: an agency with such a slug would have its
 * /{slug}/signup link shadowed by (or shadow) a real page.
 */
export const RESERVED_SLUGS = new Set([
  "admin",
  "admin-recovery",
  "agency",
  "agency-application-signup",
  "agency-application-status",
  "agency-dashboard",
  "agency-invitation",
  "ai-thumbnail-editor",
  "analytics",
  "api",
  "assets",
  "auth",
  "campaigns",
  "channels",
  "chat-management",
  "clipping",
  "community-chat",
  "dashboard",
  "dev",
  "healthz",
  "licences",
  "licenses",
  "login",
  "media",
  "music",
  "music-partner-terms",
  "music-signup",
  "payments",
  "pending-approval",
  "privacy-policy",
  "profile",
  "referrals",
  "settings",
  "shortbeat",
  "signup",
  "sitemap",
  "static",
  "support",
  "terms-of-service",
  "user-retention",
  "www",
]);

/** Why a slug cannot be used, or null when it can (uniqueness is the server's part). */
export function slugProblem(slug: string): string | null {
  if (slug.length < SLUG_MIN) return `Slug must be at least ${SLUG_MIN} characters.`;
  if (slug.length > SLUG_MAX) return `Slug must be ${SLUG_MAX} characters or less.`;
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) {
    return "Use lowercase letters, numbers and single hyphens (not at the start or end).";
  }
  if (RESERVED_SLUGS.has(slug)) return "This slug is reserved. Please choose another.";
  return null;
}

/** A suggestion made from the agency name: 'Northwind Talent!' → 'northwind-talent'. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, "");
}

export const AGENCY_TERMS_MESSAGE = "Please accept the Terms of Service and Privacy Policy to continue.";

/**
 * The one answer to adding a manager, whatever the e-mail (issue 11, item 4): it never says
 * whether an account uses the address or is banned. The person accepts from the e-mail.
 */
export const MANAGER_INVITED = "If an account exists for this e-mail, it has been invited";

/** What the invitation page says when it cannot be accepted, by reason (docs/decisions/0065). */
export const INVITATION_MESSAGES = {
  invalid: "This invitation link is invalid, has expired or was already used. Ask the agency for a new invitation.",
  wrongAccount: "This invitation was sent to another e-mail address. Sign in with the account that received it.",
  unverified: "Verify your e-mail address first, then open this invitation again.",
  unapproved: "Your account must be approved before you can manage an agency. Open this invitation again once it is.",
} as const;

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export const LOGO_MESSAGE = "Choose a logo file (PNG, JPG or WEBP, up to 2 MB).";

export const MUSIC_TERMS_MESSAGE = "Please accept the Music Partner Terms to continue.";

/** Toast title for a field error, as the spec pairs titles and messages (the sign-up screens' pairing). */
export const agencyFieldTitle = (field: string, message: string): string => titleForField(field, message);
