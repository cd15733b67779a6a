import { z } from "zod";
import { MESSAGES, isValidEmail } from "~/modules/accounts/schema";
import { sanitizeText } from "~/lib/sanitize";
import { REASON_MAX, USER_STATUS_FILTERS, SEVERITY_FILTERS } from "./messages";

// The constants, labels and messages without zod live in ./messages: that is what pages import
// on their first load (docs/decisions/0086). Re-exported here for the server and other modules.
export {
  ACTIONS_WITH_REASON,
  AGENCY_ACTIONS,
  AGENCY_ACTION_LABELS,
  AGENCY_FILTERS,
  REASON_MAX,
  SEVERITY_FILTERS,
  USER_ACTIONS,
  USER_ACTION_LABELS,
  USER_STATUS_FILTERS,
} from "./messages";
export type { UserAction, UserStatusFilter, AgencyFilter, AgencyAction } from "./messages";

// Forms and queries of the admin console: user actions, list filters, the audit log, app
// settings and break-glass recovery. The browser and the actions read the same schemas.

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
  // Issue 28: for a person who asked by e-mail (the same 30-day grace period as their own request).
  z.object({ intent: z.literal("delete_account"), userId, confirm: confirmed }),
]);
export type UserActionInput = z.infer<typeof userActionSchema>;

const page = z.coerce.number().int().min(1).max(100_000).catch(1);

/** A search box's text, trimmed and cut to `max` characters (searched with instr: any script, any byte length). */
const searchText = (max: number) =>
  z
    .string()
    .catch("")
    .transform((v) => v.trim().slice(0, max).trim());

export const userListQuerySchema = z.object({
  // A longer search is cut, not dropped (dropped, it listed everyone as if nothing was typed).
  q: searchText(100),
  status: z.enum(USER_STATUS_FILTERS).catch("all"),
  page,
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

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
  user: searchText(254).transform((v) => v.toLowerCase()),
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
  // Off (0) by default; paid from the platform's side, so never above its 30% (issue 18).
  referralBonusBp: z
    .string()
    .optional()
    .default("0")
    .pipe(wholeNumber("Referral bonus", 0, 3000)),
  // A payable balance below it carries over to the next payout day (issue 29).
  payoutMinimumUsd: z
    .string()
    .optional()
    .default("10")
    .pipe(wholeNumber("Minimum payout", 1, 10000)),
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

const agencyId = uuidSchema;

export const agencyActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), agencyId, confirm: confirmed }),
  z.object({ intent: z.literal("reject"), agencyId, confirm: confirmed, reason: reasonSchema }),
  z.object({ intent: z.literal("activate"), agencyId, confirm: confirmed }),
  z.object({ intent: z.literal("deactivate"), agencyId, confirm: confirmed }),
]);
