import { and, eq, isNull } from "drizzle-orm";
import { users } from "~/db/schema";
import { DomainError, conflict, invalid } from "~/lib/errors";
import { authorize } from "~/lib/permissions";
import { audit, auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { LIMITS, consume, release } from "~/platform/rate-limit.server";
import { passwordAndSessionStart, requireFreshSignIn } from "./deletion.server";
import { actorOf } from "./directory.server";
import { hashPassword, verifyPassword } from "./password.server";
import { createSession, endSessions, type SessionUser } from "./session.server";

import { limited } from "./account-tokens.server";

/** The spec's password-check failure (section 8): 'Verification failed', also 'User not authenticated'. */
const VERIFICATION_FAILED = "Verification failed";
const USER_NOT_AUTHENTICATED = "User not authenticated";

// A signed-in person's password: changing it (the current one checked) and setting a first one on a
// Google-only account (docs/decisions/0325). Every session ends; this browser gets a fresh one.

/**
 * The signed-in user changes their password: every session ends, this one included, and this
 * browser gets a fresh one (its Set-Cookie is returned).
 */
export async function changePassword(
  request: Request,
  user: SessionUser,
  input: { currentPassword: string; password: string },
): Promise<{ setCookie: string }> {
  authorize(actorOf(user), "account", "changePassword");
  const scope = `user:${user.id}`;
  // Counted before the check (parallel guesses cannot all pass); the right password gives it back.
  const state = await consume("change-password", scope, LIMITS.generic);
  if (!state.allowed) throw limited(LIMITS.generic, state.retryAfterSeconds);
  const row = await db().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id)).get();
  if (!row) {
    // The account is gone under the session: the spec's password-check failure for no user.
    await release("change-password", scope, LIMITS.generic);
    throw new DomainError("unauthenticated", USER_NOT_AUTHENTICATED, { title: VERIFICATION_FAILED });
  }
  let check: { valid: boolean };
  try {
    check = row.passwordHash ? await verifyPassword(row.passwordHash, input.currentPassword) : { valid: false };
  } catch (error) {
    console.error("password verification failed", error);
    await release("change-password", scope, LIMITS.generic);
    throw new DomainError("unavailable", "Unable to verify password. Please try again.", { title: VERIFICATION_FAILED });
  }
  if (!check.valid) {
    await audit({ eventType: "password_change_failure", severity: "medium", userId: user.id, request });
    const message = "The current password you entered is incorrect.";
    throw invalid(message, { title: "Incorrect password", fieldErrors: { currentPassword: message } });
  }
  await release("change-password", scope, LIMITS.generic);
  const now = new Date().toISOString();
  const passwordHash = await hashPassword(input.password);
  await endSessions({ userId: user.id, reason: "password_changed", scope: "all" }, (end) =>
    db().batch([
      db().update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id)),
      ...end,
      auditQuery({ eventType: "password_change", severity: "medium", userId: user.id, targetUserId: user.id, request }),
    ]),
  );
  return { setCookie: await createSession(request, user.id) };
}

/**
 * A Google-only account sets its first password (docs/decisions/0325). It has no current password
 * to ask for, so, as for deleting such an account (0213), this session must come from a Google
 * sign-in of the last FRESH_SIGN_IN_MS. Like a password change, every session ends, this one
 * included, and this browser gets a fresh one (its Set-Cookie is returned). One guarded update
 * (WHERE password_hash IS NULL): a second request, or an account that has a password, changes nothing.
 */
export async function setFirstPassword(request: Request, user: SessionUser, input: { password: string }): Promise<{ setCookie: string }> {
  authorize(actorOf(user), "account", "changePassword");
  const row = await passwordAndSessionStart(user);
  if (!row) throw new DomainError("unauthenticated", USER_NOT_AUTHENTICATED, { title: VERIFICATION_FAILED });
  const hasOne = () => conflict("Your account already has a password. Change it with your current password.", { title: "Password already set" });
  if (row.passwordHash) throw hasOne();
  requireFreshSignIn(row, "For your security, sign in with Google again, then set your password within 10 minutes.");
  const now = new Date().toISOString();
  const passwordHash = await hashPassword(input.password);
  try {
    await endSessions({ userId: user.id, reason: "password_changed", scope: "all" }, (end) =>
      db().batch([
        db()
          .update(users)
          .set({ passwordHash, updatedAt: now })
          .where(and(eq(users.id, user.id), isNull(users.passwordHash))),
        precondition(previousStatementChanged(1)),
        ...end,
        auditQuery({
          eventType: "password_set",
          severity: "medium",
          userId: user.id,
          targetUserId: user.id,
          request,
          details: { method: "fresh_google_sign_in" },
        }),
      ]),
    );
  } catch (error) {
    if (isPreconditionFailure(error)) throw hasOne();
    throw error;
  }
  return { setCookie: await createSession(request, user.id) };
}
