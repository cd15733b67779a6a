import { DomainError } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import type { AppSettings } from "~/lib/settings";
import { accountForRecovery, emailOfUser, grantAdminThroughRecovery, userEmailContains } from "~/modules/accounts/accounts.server";
import { audit } from "~/platform/audit.server";
import { readAuditLog } from "~/platform/audit-log.server";
import { cappedPages, pageWithinCap } from "~/platform/capped-count.server";
import { safeEqual } from "~/platform/crypto.server";
import { env } from "~/platform/env.server";
import { LIMITS, consume, ipScope, logRateLimitHit, tooManyAttempts } from "~/platform/rate-limit.server";
import { serviceReports } from "~/platform/service-status.server";
import { getSettings, settingsHistory, updateSettings } from "~/platform/settings.server";
import type { AuditQuery, RecoveryInput } from "./schema";

// The admin console's own rules: reading the security audit log, the app settings, and
// break-glass recovery. The work on accounts (approval, bans, roles, sessions) is the accounts
// module's (moderation.server.ts), reached through its facade. The admin module owns no table:
// the audit log and the settings are platform stores, read and changed here for the admin.

export const AUDIT_PAGE_SIZE = 25;

// ---------------------------------------------------------------------------------------------
// Security audit log (read-only)
// ---------------------------------------------------------------------------------------------

/** One page of the audit log, filtered by type, severity, a user's e-mail and UTC days (one batch). */
export async function listAuditLog(actor: Actor, query: AuditQuery) {
  authorize(actor, "auditLog", "read");
  // The total is counted up to COUNT_CAP ("10,000+") and the pages stop there (0340).
  const page = pageWithinCap(query.page, AUDIT_PAGE_SIZE);
  const { entries, total, eventTypes } = await readAuditLog(
    { type: query.type, severity: query.severity, from: query.from, to: query.to, user: query.user, page, pageSize: AUDIT_PAGE_SIZE },
    { emailOf: emailOfUser, emailContains: userEmailContains },
  );
  return { entries, eventTypes, page, ...cappedPages(total, AUDIT_PAGE_SIZE) };
}

// ---------------------------------------------------------------------------------------------
// App settings
// ---------------------------------------------------------------------------------------------

/** The settings in force and when each last changed, by whom. */
export async function settingsPage(actor: Actor) {
  authorize(actor, "settings", "read");
  const [settings, history] = await Promise.all([getSettings(), settingsHistory(emailOfUser)]);
  return { settings, history };
}

/** The System status panel: every outside service, configured or not, last success and error, quota (decision 0312). */
export async function systemStatusPage(actor: Actor) {
  authorize(actor, "settings", "read");
  return { services: await serviceReports() };
}

/** Stores the settings that changed, with one audit row; returns which changed. */
export async function saveSettings(actor: Actor, next: AppSettings, request: Request): Promise<(keyof AppSettings)[]> {
  authorize(actor, "settings", "update");
  const { changed } = await updateSettings(actor, next, request);
  return changed;
}

// ---------------------------------------------------------------------------------------------
// Break-glass recovery
// ---------------------------------------------------------------------------------------------

/** The one answer /admin-recovery gives, whatever happened (it must reveal nothing). */
export const RECOVERY_ANSWER = "If the recovery secret and the e-mail address are both correct, that account now has admin access. Sign in to continue.";

/** Below this length a configured secret is treated as unset: recovery stays closed. */
export const RECOVERY_SECRET_MIN = 16;

/**
 * The deployment's recovery secret plus an existing account's e-mail grants admin. Rate-limited
 * per connecting address (429 otherwise), logged as a critical event either way, and answered
 * the same way (RECOVERY_ANSWER) whether the secret was wrong, the e-mail unknown, or the grant made.
 * Public by design: the secret is the guard, so there is no actor to authorize.
 */
export async function recoverAdmin(request: Request, input: RecoveryInput): Promise<void> {
  const limit = await consume("admin-recovery", ipScope(request), LIMITS.generic);
  if (!limit.allowed) {
    await logRateLimitHit(request, "admin-recovery");
    const t = tooManyAttempts(LIMITS.generic);
    throw new DomainError("rate_limited", t.description, { title: t.title, retryAfterSeconds: limit.retryAfterSeconds });
  }
  const configured = env.ADMIN_RECOVERY_SECRET ?? "";
  // Look the account up on every path, so a wrong secret and a right one take the same work.
  const account = await accountForRecovery(input.email);
  const secretOk = configured.length >= RECOVERY_SECRET_MIN && safeEqual(input.secret, configured);

  if (!secretOk || !account) {
    await audit({
      eventType: "admin_recovery_failed",
      severity: "critical",
      targetUserId: account?.id ?? null,
      request,
      details: {
        reason: !secretOk ? (configured.length < RECOVERY_SECRET_MIN ? "recovery_disabled" : "wrong_secret") : "unknown_account",
        email: input.email,
      },
    });
    return;
  }
  await grantAdminThroughRecovery(account, input.email, request);
}
