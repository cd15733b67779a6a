import { z } from "zod";
import { MESSAGES, isValidEmail } from "~/modules/accounts/schema";
import { sanitizeText } from "~/lib/sanitize";

// Forms and queries of the admin console: user actions, list filters, the audit log, app
// settings and break-glass recovery. The browser and the actions read the same schemas.

export const REASON_MAX = 500;

/** A reason an admin gives (rejection, ban, unban): sanitized, required, at most 500 characters. */
export const reasonSchema = z
  .string({ message: "Please give a reason." })
  .transform((v) => sanitizeText(v).trim())
  .pipe(
    z
      .string()
      .min(1, { message: "Please give a reason." })
      .max(REASON_MAX, { message: `Reason must be ${REASON_MAX} characters or less.` }),
  );

export const USER_ACTIONS = ["approve", "reject", "ban", "unban", "toggle_music_partner", "grant_admin", "revoke_admin", "end_sessions"] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** Which actions need a reason typed into their confirm step. */
export const ACTIONS_WITH_REASON: readonly UserAction[] = ["reject", "ban", "unban"];

export const USER_ACTION_LABELS: Record<UserAction, { label: string; confirm: string; danger?: boolean }> = {
  approve: { label: "Approve", confirm: "Approve this account? The user is notified and e-mailed." },
  reject: { label: "Reject", confirm: "Reject this account? The user is notified with your reason.", danger: true },
  ban: {
    label: "Ban",
    confirm: "Ban this user? Every session ends at once and the user is notified with your reason.",
    danger: true,
  },
  unban: { label: "Unban", confirm: "Lift the ban? The user is notified with your reason." },
  toggle_music_partner: { label: "Toggle music partner", confirm: "Change this user's music partner access?" },
  grant_admin: {
    label: "Grant admin",
    confirm: "Make this user an admin? They get full access to the admin console; their sessions end.",
    danger: true,
  },
  revoke_admin: { label: "Revoke admin", confirm: "Remove this user's admin role? Their sessions end.", danger: true },
  end_sessions: { label: "End all sessions", confirm: "Sign this user out on every device?", danger: true },
};

const confirmed = z.literal("yes", { message: "Please confirm the action." });
export const uuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: "Unknown id." });
const userId = uuidSchema;

export const userActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), userId, confirm: confirmed }),
  z.object({ intent: z.literal("reject"), userId, confirm: confirmed, reason: reasonSchema }),
  z.object({ intent: z.literal("ban"), userId, confirm: confirmed, reason: reasonSchema }),
  z.object({ intent: z.literal("unban"), userId, confirm: confirmed, reason: reasonSchema }),
  z.object({ intent: z.literal("toggle_music_partner"), userId, confirm: confirmed }),
  z.object({ intent: z.literal("grant_admin"), userId, confirm: confirmed }),
  z.object({ intent: z.literal("revoke_admin"), userId, confirm: confirmed }),
  z.object({ intent: z.literal("end_sessions"), userId, confirm: confirmed }),
]);
export type UserActionInput = z.infer<typeof userActionSchema>;

export const USER_STATUS_FILTERS = ["all", "pending", "approved", "rejected", "banned", "admin"] as const;
export type UserStatusFilter = (typeof USER_STATUS_FILTERS)[number];

const page = z.coerce.number().int().min(1).max(100_000).catch(1);

export const userListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  status: z.enum(USER_STATUS_FILTERS).catch("all"),
  page,
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export const SEVERITY_FILTERS = ["all", "low", "medium", "high", "critical"] as const;

const isoDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
  .or(z.literal(""))
  .catch("");

export const auditQuerySchema = z.object({
  type: z
    .string()
    .trim()
    .max(64)
    .transform((v) => v.replace(/[^A-Za-z0-9_:.-]/g, ""))
    .catch(""),
  severity: z.enum(SEVERITY_FILTERS).catch("all"),
  user: z.string().trim().toLowerCase().max(254).catch(""),
  from: isoDay,
  to: isoDay,
  page,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

// ---------------------------------------------------------------------------------------------
// App settings
// ---------------------------------------------------------------------------------------------

// The settings' names, defaults and keys are shared with the platform's settings store.
export { DEFAULT_SETTINGS, SETTING_KEYS, type AppSettings } from "~/lib/settings";

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .min(1, { message: `${label} is required.` })
    .refine((v) => /^\d+$/.test(v), { message: `${label} must be a whole number.` })
    .transform((v) => Number.parseInt(v, 10))
    .refine((n) => n >= min && n <= max, { message: `${label} must be between ${min} and ${max}.` });

/** Bounds keep a typo from locking everyone out (a limit of 0) or paying out more than 100%. */
export const settingsSchema = z.object({
  creatorSharePercent: wholeNumber("Standard creator share", 1, 100),
  // Up to the 28th, so every month has the day.
  payoutDayOfMonth: wholeNumber("Payout day", 1, 28),
  signupLimitPerHour: wholeNumber("Sign-up attempts per hour", 1, 1000),
  genericLimitPer15Min: wholeNumber("Attempts per 15 minutes", 1, 100),
  suspiciousLimitPer15Min: wholeNumber("Suspicious-activity threshold", 1, 1000),
});

// ---------------------------------------------------------------------------------------------
// Break-glass recovery
// ---------------------------------------------------------------------------------------------

export const recoverySchema = z.object({
  email: z.string().trim().toLowerCase().refine(isValidEmail, { message: MESSAGES.invalidEmail }),
  secret: z.string().min(1, { message: "Recovery secret is required." }).max(512, { message: "Recovery secret must be 512 characters or less." }),
});
export type RecoveryInput = z.infer<typeof recoverySchema>;

// ---------------------------------------------------------------------------------------------
// Agencies (admin review)
// ---------------------------------------------------------------------------------------------

export const AGENCY_FILTERS = ["all", "pending", "approved", "rejected", "inactive"] as const;
export type AgencyFilter = (typeof AGENCY_FILTERS)[number];

export const AGENCY_ACTIONS = ["approve", "reject", "activate", "deactivate"] as const;
export type AgencyAction = (typeof AGENCY_ACTIONS)[number];

export const AGENCY_ACTION_LABELS: Record<AgencyAction, { label: string; confirm: string; danger?: boolean }> = {
  approve: { label: "Approve", confirm: "Approve this agency? Its signup links start working and its managers are notified." },
  reject: { label: "Reject", confirm: "Reject this application? The applicant sees your reason.", danger: true },
  activate: { label: "Activate", confirm: "Activate this agency? Its dashboard and signup links work again." },
  deactivate: {
    label: "Deactivate",
    confirm: "Deactivate this agency? Its dashboard and signup links stop working until it is activated again.",
    danger: true,
  },
};

const agencyId = uuidSchema;

export const agencyActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), agencyId, confirm: confirmed }),
  z.object({ intent: z.literal("reject"), agencyId, confirm: confirmed, reason: reasonSchema }),
  z.object({ intent: z.literal("activate"), agencyId, confirm: confirmed }),
  z.object({ intent: z.literal("deactivate"), agencyId, confirm: confirmed }),
]);
