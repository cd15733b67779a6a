import { and, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { formatDate } from "~/lib/dates";
import { oauthAccounts, oneTimeTokens, phoneCodes, profiles, sessions, userRoles, users } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { DomainError, invalid, notFound, rateLimited } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { auditEventsAboutQuery } from "~/platform/audit-log.server";
import { shortCode } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { forgetEmailsToQuery } from "~/platform/email-retention.server";
import { forgetOptOutsQuery } from "~/platform/email-preferences.server";
import { appLink, emailQuery } from "~/platform/email.server";
import { appName, env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume, LIMITS, release, tooManyAttempts } from "~/platform/rate-limit.server";
import { actorOf, profileStandingColumns } from "./directory.server";
import { burnPasswordCheck, verifyPassword } from "./password.server";
import { afterSessionsEnded, endSessionsStatements, eraseSessionsStatements, type SessionUser } from "./session.server";

// Deleting an account (the privacy policy: 'we delete or anonymise your personal data within 30
// days'; docs/decisions/0213). The person asks in Settings with their password (a Google-only
// account signs in with Google again first), or an admin starts it for someone who asked by e-mail.
// Every session and socket ends at once and the account is frozen for GRACE_DAYS: signing in
// offers to keep it. Then the daily job (app/modules/privacy) erases each domain's data and, last,
// anonymises the account here: the e-mail is replaced (the address can sign up again), the
// personal fields are scrubbed, credentials and sessions deleted. The users row stays, as
// "Deleted user", for the money records kept six years (ledger, payouts) and chat history.

export const DELETION_GRACE_DAYS = 30;
/**
 * How recent a Google sign-in must be for an account without a password (none to ask for) to be
 * deleted, or to set its first password (password-change.server.ts).
 */
export const FRESH_SIGN_IN_MS = 10 * 60_000;
export const DELETED_NAME = "Deleted user";

const INCORRECT = "The password you entered is incorrect.";

function dueFrom(now: number): string {
  return new Date(now + DELETION_GRACE_DAYS * 86_400_000).toISOString();
}

/** The deletion day as every screen writes dates (app/lib/dates.ts, decision 0314); e-mails say UTC. */
function formatDay(iso: string): string {
  return formatDate(iso);
}

function scheduledEmail(to: string, dueAt: string, byAdmin: boolean) {
  return emailQuery({
    to,
    kind: "account_deletion_requested",
    subject: `Your ${appName()} account will be deleted on ${formatDay(dueAt)}`,
    action: appLink("/auth"),
    text: `${byAdmin ? `As you asked, we have started deleting your ${appName()} account.` : `You asked us to delete your ${appName()} account.`} Every session has been signed out.\n\nOn ${formatDay(dueAt)} (UTC) we will delete or anonymise your personal data. Earnings and payout records are kept for six years without your name, as UK tax law requires.\n\nMoney you have earned is still paid to your connected Stripe account on the usual payout days; we will not e-mail you about it. If you have no payout account connected, reply to this e-mail before then so that we can arrange payment.\n\nChanged your mind, or want a copy of your data first? Sign in before then: you can choose "Keep my account" or download your data.\n${appLink("/auth")}\n\nIf you did not ask for this, sign in and keep your account, then change your password.`,
  });
}

/** The statements that start a deletion (guarded: only an account not already scheduled), with its sessions ended and its e-mail. */
function scheduleStatements(request: Request, target: { id: string; email: string }, actorId: string, now: number) {
  const at = new Date(now).toISOString();
  const dueAt = dueFrom(now);
  return {
    dueAt,
    statements: [
      db()
        .update(users)
        .set({ deletionRequestedAt: at, deletionDueAt: dueAt, updatedAt: at })
        .where(and(eq(users.id, target.id), isNull(users.deletionRequestedAt), isNull(users.deletedAt))),
      precondition(previousStatementChanged(1)),
      ...endSessionsStatements({ userId: target.id, reason: "ended_by_user", scope: "all" }, now),
      scheduledEmail(target.email, dueAt, actorId !== target.id),
      auditQuery({
        eventType: "account_deletion_requested",
        severity: "medium",
        userId: actorId,
        targetUserId: target.id,
        request,
        details: { due_at: dueAt, by: actorId === target.id ? "self" : "admin" },
      }),
    ] as const,
  };
}

const alreadyScheduled = () => new DomainError("conflict", "This account is already scheduled for deletion.", { title: "Already scheduled" });

async function runSchedule(request: Request, target: { id: string; email: string }, actorId: string): Promise<{ dueAt: string }> {
  const { dueAt, statements } = scheduleStatements(request, target, actorId, Date.now());
  try {
    await db().batch([...statements]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw alreadyScheduled();
    throw error;
  }
  await afterSessionsEnded(target.id);
  return { dueAt };
}

/** The account's password hash (null without one) and when this session started; undefined once the session is gone. */
export function passwordAndSessionStart(user: SessionUser) {
  return db()
    .select({ passwordHash: users.passwordHash, sessionCreatedAt: sessions.createdAt })
    .from(users)
    .innerJoin(sessions, eq(sessions.userId, users.id))
    .where(and(eq(users.id, user.id), eq(sessions.id, user.sessionId)))
    .get();
}

/**
 * An account without a password proves it is its owner by a Google sign-in of the last
 * FRESH_SIGN_IN_MS (this session's start); an older session is refused with `message`.
 */
export function requireFreshSignIn(row: { sessionCreatedAt: string }, message: string): void {
  if (Date.now() - Date.parse(row.sessionCreatedAt) > FRESH_SIGN_IN_MS) {
    throw new DomainError("forbidden", message, { title: "Sign in again" });
  }
}

/**
 * The person deletes their account (Settings): their password, or for an account without one a
 * Google sign-in of the last FRESH_SIGN_IN_MS (this session's start). Counted like a password
 * check (parallel guesses cannot pass the limit). Every session ends; the caller clears the cookie.
 */
export async function requestAccountDeletion(request: Request, user: SessionUser, input: { password: string }): Promise<{ dueAt: string }> {
  authorize(actorOf(user), "account", "delete", { ownerId: user.id });
  const scope = `user:${user.id}`;
  const state = await consume("delete-account", scope, LIMITS.generic);
  if (!state.allowed) {
    const { title, description } = tooManyAttempts(LIMITS.generic);
    throw rateLimited(state.retryAfterSeconds, description, title);
  }
  const row = await passwordAndSessionStart(user);
  if (!row) throw notFound("Your session has ended. Sign in again.");
  if (row.passwordHash) {
    const check = await verifyPassword(row.passwordHash, input.password);
    if (!check.valid) throw invalid(INCORRECT, { title: "Incorrect password", fieldErrors: { password: INCORRECT } });
  } else {
    await burnPasswordCheck(input.password);
    requireFreshSignIn(row, "For your security, sign in with Google again, then delete your account within 10 minutes.");
  }
  await release("delete-account", scope, LIMITS.generic);
  return runSchedule(request, { id: user.id, email: user.email }, user.id);
}

/** An admin starts the deletion of a person who asked by e-mail (the same grace period; the person is told). */
export async function requestAccountDeletionFor(actor: Actor, userId: string, request: Request): Promise<{ dueAt: string; email: string }> {
  authorize(actor, "user", "delete");
  if (userId === actor.id) throw invalid("Delete your own account from Settings.", { title: "Not here" });
  const target = await db().select({ id: users.id, email: users.email, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).get();
  if (!target || target.deletedAt) throw notFound("User not found.");
  const { dueAt } = await runSchedule(request, target, actor.id);
  return { dueAt, email: target.email };
}

/** Keeps an account scheduled for deletion (its owner signed in during the grace period). Once. */
export async function cancelAccountDeletion(request: Request, user: SessionUser): Promise<void> {
  authorize(actorOf(user), "account", "delete", { ownerId: user.id });
  const at = new Date().toISOString();
  const result = await db()
    .update(users)
    .set({ deletionRequestedAt: null, deletionDueAt: null, updatedAt: at })
    .where(and(eq(users.id, user.id), isNotNull(users.deletionRequestedAt), isNull(users.deletedAt)))
    .run();
  if ((result.meta.changes ?? 0) === 0) return;
  await db().batch([auditQuery({ eventType: "account_deletion_cancelled", severity: "medium", userId: user.id, targetUserId: user.id, request })]);
}

/** Accounts whose grace period is over (the daily job's work), oldest first. */
export async function accountsDueForDeletion(now = Date.now(), limit = 100): Promise<{ id: string }[]> {
  return db()
    .select({ id: users.id })
    .from(users)
    .where(and(lte(users.deletionDueAt, new Date(now).toISOString()), isNull(users.deletedAt)))
    .orderBy(users.deletionDueAt)
    .limit(limit);
}

/** The account of a pending deletion by e-mail (the development factory's 'run-deletions-now'). */
export async function pendingDeletionByEmail(email: string): Promise<{ id: string } | null> {
  const row = await db().select({ id: users.id, due: users.deletionDueAt, deletedAt: users.deletedAt }).from(users).where(eq(users.email, email)).get();
  return row?.due && !row.deletedAt ? { id: row.id } : null;
}

/**
 * The accounts domain's part of carrying out a deletion, last (after every other domain erased
 * theirs): one batch, guarded so that two runs anonymise once. The e-mail becomes
 * deleted-<id>@deleted.invalid (RFC 2606: never deliverable), so the real address can sign up
 * again; the name becomes "Deleted user"; the referral code is replaced (old links stop naming the
 * person); password, phone, Google link, tokens, codes, roles and sessions go; the e-mails to the
 * address and its e-mail preferences go; the avatar files are deleted from R2 afterwards.
 * Returns false when it was already done.
 */
export async function anonymiseAccount(userId: string, now = Date.now()): Promise<boolean> {
  const row = await db().select({ email: users.email, deletedAt: users.deletedAt, due: users.deletionDueAt }).from(users).where(eq(users.id, userId)).get();
  if (!row || row.deletedAt || !row.due) return false;
  const at = new Date(now).toISOString();
  try {
    await db().batch([
      db()
        .update(users)
        .set({
          email: `deleted-${userId}@deleted.invalid`,
          emailVerifiedAt: null,
          passwordHash: null,
          userMetadata: "{}",
          phone: null,
          phoneVerifiedAt: null,
          deletedAt: at,
          deletionDueAt: null,
          updatedAt: at,
        })
        .where(and(eq(users.id, userId), isNull(users.deletedAt), isNotNull(users.deletionDueAt))),
      precondition(previousStatementChanged(1)),
      db()
        .update(profiles)
        .set({
          fullName: DELETED_NAME,
          avatarUrl: null,
          artistName: null,
          catalogueUrl: null,
          banReason: null,
          rejectionReason: null,
          creatorId: sql`${`X${shortCode(10)}`}`,
          updatedAt: at,
        })
        .where(eq(profiles.userId, userId)),
      ...eraseSessionsStatements(userId),
      db().delete(oauthAccounts).where(eq(oauthAccounts.userId, userId)),
      db().delete(oneTimeTokens).where(eq(oneTimeTokens.userId, userId)),
      db().delete(phoneCodes).where(eq(phoneCodes.userId, userId)),
      db().delete(userRoles).where(eq(userRoles.userId, userId)),
      forgetEmailsToQuery(row.email),
      forgetOptOutsQuery(row.email),
      auditQuery({ eventType: "account_deleted", severity: "medium", targetUserId: userId, details: { requested_due_at: row.due } }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) return false;
    throw error;
  }
  await afterSessionsEnded(userId);
  // Public files: every avatar this account uploaded (avatars/<id>/…).
  for (let cursor: string | undefined; ; ) {
    const page = await env.AVATARS.list({ prefix: `avatars/${userId}/`, cursor });
    if (page.objects.length) await env.AVATARS.delete(page.objects.map((o) => o.key));
    if (!page.truncated) break;
    cursor = page.cursor;
  }
  return true;
}

/** The account's own part of a data export (never tokens or password hashes). */
export async function accountExport(userId: string) {
  const [account, roles, linked, activeSessions, audit] = await db().batch([
    db()
      .select({
        ...columnsOf(users, "id", "email", "emailVerifiedAt", "phone", "phoneVerifiedAt"),
        signUpDetails: users.userMetadata,
        createdAt: users.createdAt,
        hasPassword: sql<boolean>`${users.passwordHash} is not null`.mapWith(Boolean),
        ...columnsOf(users, "deletionRequestedAt", "deletionDueAt"),
        ...profileStandingColumns,
        ...columnsOf(profiles, "avatarUrl", "agencyId", "referredBy", "termStartedAt"),
      })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, userId)),
    db().select({ role: userRoles.role, since: userRoles.createdAt }).from(userRoles).where(eq(userRoles.userId, userId)),
    db()
      .select({ provider: oauthAccounts.provider, email: oauthAccounts.email, linkedAt: oauthAccounts.createdAt })
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, userId)),
    // Sessions without their ids (an id is the hash of a cookie token).
    db()
      .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, userAgent: sessions.userAgent, ip: sessions.ip })
      .from(sessions)
      .where(eq(sessions.userId, userId)),
    auditEventsAboutQuery(userId),
  ]);
  const [profile] = account;
  if (!profile) return null;
  let signUpDetails: unknown = {};
  try {
    signUpDetails = JSON.parse(profile.signUpDetails);
  } catch {
    // kept as stored
  }
  return { profile: { ...profile, signUpDetails }, roles, linkedAccounts: linked, sessions: activeSessions, securityEvents: audit };
}

/** Whether the account signs in with a password (Settings asks for it to delete; a Google-only account signs in with Google again). */
export async function accountHasPassword(user: SessionUser): Promise<boolean> {
  authorize(actorOf(user), "account", "read");
  const row = await db().select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)).get();
  return Boolean(row?.hash);
}
