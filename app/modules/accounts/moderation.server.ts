import { and, eq, exists, ne, not, or, sql, type SQL } from "drizzle-orm";
import { profiles, userRoles, users } from "~/db/schema";
import { conflict, type DomainError, invalid, notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { tell, type AccountDecision } from "~/platform/account-hooks.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { appOrigin, emailQuery, type Email, userText } from "~/platform/email.server";
import { requestAccountDeletionFor } from "./deletion.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { isAdminUser } from "./directory.server";
import { afterSessionsEnded, endSessionsStatements, type SessionEndReason } from "./session.server";
import { isAdminColumn, type Standing, standingColumns } from "./user-list.server";

type OnUser<I extends string> = { intent: I; userId: string };
/** An admin's action on a user as admin/schema parses it (the confirmation already checked). */
export type UserActionInput =
  | OnUser<"approve" | "toggle_music_partner" | "grant_admin" | "revoke_admin" | "end_sessions" | "delete_account">
  | (OnUser<"reject" | "ban" | "unban"> & { reason: string });

// User moderation, the admin console's work on accounts: list and details, approval, bans, the
// music partner flag, the admin role and sessions. Each action takes the acting admin (checked
// against PERMISSIONS.user), writes the change, its e-mail and its audit row in one batch, then
// notifies the user. A transition is a guarded update: the batch holds only if the update changed
// the row, so twenty parallel approvals send one e-mail, one notification and one audit row.
// See docs/decisions/0021-admin-actions.md.

// ---------------------------------------------------------------------------------------------
// Users: actions
// ---------------------------------------------------------------------------------------------

type Target = Standing;

async function loadTarget(userId: string): Promise<Target | null> {
  const row = await db().select(standingColumns()).from(users).innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, userId)).get();
  return row ?? null;
}

async function targetOrThrow(userId: string): Promise<Target> {
  const target = await loadTarget(userId);
  if (!target) throw notFound("User not found.");
  return target;
}

const nameOf = (t: Target) => t.fullName || t.email;
/** The e-mail's first line; the name is the person's text, inert (docs/decisions/0288). */
const greeting = (t: Target) => `Hi ${t.fullName ? userText(t.fullName) : "there"},`;
const LAST_ADMIN = "You cannot remove the last admin.";

/** The user in `userId` holds the admin role (a bound id, not a column). */
const holdsAdmin = (userId: string) => isAdminUser(sql`${userId}`);

/** Another admin who is not banned remains besides `targetId`. */
const anotherActiveAdminRemains = (targetId: string) =>
  exists(
    db()
      .select({ one: sql`1` })
      .from(profiles)
      .where(and(eq(profiles.isBanned, false), ne(profiles.userId, targetId), isAdminUser(profiles.userId))),
  );

/** Every session of the user ends (session.server.ts's one path; afterSessionsEnded follows the batch). */
const endSessionsQuery = (userId: string, reason: SessionEndReason) => endSessionsStatements({ userId, reason, scope: "all" });
const changedOnce = () => precondition(previousStatementChanged(1));

type Batch = Parameters<ReturnType<typeof db>["batch"]>[0];

/**
 * The guarded update of a transition and its check: `values` are written only while `from` still
 * holds, and the batch holds only if this request changed the row.
 */
const updateProfileOnce = (userId: string, values: Partial<typeof profiles.$inferInsert>, from: SQL) =>
  [
    db()
      .update(profiles)
      .set({ ...values, updatedAt: new Date().toISOString() })
      .where(and(eq(profiles.userId, userId), from)),
    changedOnce(),
  ] as const;

/**
 * Runs a change's batch. When one of its preconditions does not hold (the guarded update changed
 * nothing, or the last admin would go), nothing of it is written and `refusal` says why.
 */
async function runGuarded(batch: Batch, refusal: () => Promise<DomainError>): Promise<void> {
  try {
    await db().batch(batch);
  } catch (error) {
    if (isPreconditionFailure(error)) throw await refusal();
    throw error;
  }
}

// The change is made and audited before these run; a listener's failure (the notification, stored
// in D1 and pushed to the user's open tabs; the referrer's) never turns it into an error.
const notifyQuietly = (userId: string, decision: AccountDecision, reason?: string | null) => tell("decided", userId, decision, reason ?? null);

const noticeQuietly = (userId: string, title: string, content: string, createdBy: string | null) => tell("notice", userId, { title, content, createdBy });

/**
 * Approval and rejection: the guarded status change with its e-mail and audit row, then the
 * user's notification. A second decision for the same status changes nothing and says so.
 */
async function decideApproval(
  actor: Actor,
  target: Target,
  request: Request,
  decision: { status: "approved" | "rejected"; reason: string | null; email: Omit<Email, "to"> },
): Promise<void> {
  const { status, reason } = decision;
  const already = () => conflict(`${nameOf(target)} is already ${status}.`);
  if (target.approvalStatus === status) throw already();
  // Approval waits for the sign-up's details and the Creator Agreement (docs/decisions/0324).
  const unfinished = () => conflict(`${nameOf(target)} has not finished signing up yet (channel details and Creator Agreement).`);
  if (status === "approved" && target.signUpDetailsMissing) throw unfinished();
  const from = status === "approved" ? and(ne(profiles.approvalStatus, status), eq(profiles.signUpDetailsMissing, false)) : ne(profiles.approvalStatus, status);
  await runGuarded(
    [
      ...updateProfileOnce(target.id, { approvalStatus: status, rejectionReason: reason }, from as SQL),
      emailQuery({ to: target.email, ...decision.email }),
      auditQuery({
        eventType: `user_${status}`,
        severity: "medium",
        userId: actor.id,
        targetUserId: target.id,
        request,
        details: reason === null ? { previous_status: target.approvalStatus } : { previous_status: target.approvalStatus, reason },
      }),
    ],
    async () => ((await loadTarget(target.id))?.signUpDetailsMissing && status === "approved" ? unfinished() : already()),
  );
  await notifyQuietly(target.id, status, reason);
}

export async function approveUser(actor: Actor, userId: string, request: Request): Promise<string> {
  authorize(actor, "user", "approve");
  const target = await targetOrThrow(userId);
  const origin = appOrigin();
  await decideApproval(actor, target, request, {
    status: "approved",
    reason: null,
    email: {
      kind: "account_approved",
      subject: `Your ${appName()} account is approved`,
      text: `${greeting(target)}\n\nGood news: your ${appName()} account has been approved. Sign in to get started:\n${origin}/auth\n`,
    },
  });
  // The 'decided' listeners (the notification, the referrer's) heard it only after the guarded
  // change succeeded: two admins approving at once tell the referrer once.
  return `${nameOf(target)} is approved.`;
}

export async function rejectUser(actor: Actor, userId: string, reason: string, request: Request): Promise<string> {
  authorize(actor, "user", "reject");
  const target = await targetOrThrow(userId);
  if (target.id === actor.id) throw invalid("You cannot reject your own account.");
  await decideApproval(actor, target, request, {
    status: "rejected",
    reason,
    email: {
      kind: "account_rejected",
      subject: `Your ${appName()} application`,
      text: `${greeting(target)}\n\nWe have reviewed your ${appName()} account and cannot approve it at this time.\n\nReason: ${userText(reason)}\n\nYou can reply to this message if you think this is a mistake.`,
    },
  });
  return `${nameOf(target)} is rejected.`;
}

export async function banUser(actor: Actor, userId: string, reason: string, request: Request): Promise<string> {
  authorize(actor, "user", "ban");
  if (userId === actor.id) throw invalid("You cannot ban yourself.");
  const target = await targetOrThrow(userId);
  const already = () => conflict(`${nameOf(target)} is already banned.`);
  if (target.isBanned) throw already();
  await runGuarded(
    [
      // Banning an admin must leave another active admin (and the actor must still be one).
      precondition(and(holdsAdmin(actor.id), or(not(holdsAdmin(userId)), anotherActiveAdminRemains(userId)))),
      ...updateProfileOnce(userId, { isBanned: true, banReason: reason }, eq(profiles.isBanned, false)),
      ...endSessionsQuery(userId, "banned"),
      emailQuery({
        to: target.email,
        kind: "account_banned",
        subject: `Your ${appName()} account has been banned`,
        text: `${greeting(target)}\n\nYour ${appName()} account has been banned and you have been signed out.\n\nReason: ${userText(reason)}\n\nYou can reply to this message if you think this is a mistake.`,
      }),
      auditQuery({
        eventType: "user_banned",
        severity: "high",
        userId: actor.id,
        targetUserId: userId,
        request,
        details: { reason },
      }),
    ],
    async () => ((await loadTarget(userId))?.isBanned ? already() : conflict(LAST_ADMIN)),
  );
  // The open tabs hear 'banned' first (they sign out), then their sockets close.
  await notifyQuietly(userId, "banned", reason);
  await afterSessionsEnded(userId);
  return `${nameOf(target)} is banned and signed out everywhere.`;
}

export async function unbanUser(actor: Actor, userId: string, reason: string, request: Request): Promise<string> {
  authorize(actor, "user", "unban");
  const target = await targetOrThrow(userId);
  const notBanned = () => conflict(`${nameOf(target)} is not banned.`);
  if (!target.isBanned) throw notBanned();
  await runGuarded(
    [
      ...updateProfileOnce(userId, { isBanned: false, banReason: null }, eq(profiles.isBanned, true)),
      emailQuery({
        to: target.email,
        kind: "account_unbanned",
        subject: `Your ${appName()} account is active again`,
        text: `${greeting(target)}\n\nThe ban on your ${appName()} account has been lifted. You can sign in again at ${appOrigin()}/auth\n\nNote: ${userText(reason)}`,
      }),
      auditQuery({
        eventType: "user_unbanned",
        severity: "medium",
        userId: actor.id,
        targetUserId: userId,
        request,
        details: { reason },
      }),
    ],
    async () => notBanned(),
  );
  await notifyQuietly(userId, "unbanned", reason);
  return `${nameOf(target)} is no longer banned.`;
}

export async function toggleMusicPartner(actor: Actor, userId: string, request: Request): Promise<string> {
  authorize(actor, "user", "setMusicPartner");
  const target = await targetOrThrow(userId);
  const next = !target.isMusicPartner;
  await runGuarded(
    [
      // From the state the admin saw: two toggles at once change it once.
      ...updateProfileOnce(userId, { isMusicPartner: next }, eq(profiles.isMusicPartner, target.isMusicPartner)),
      auditQuery({
        eventType: next ? "music_partner_granted" : "music_partner_revoked",
        severity: "medium",
        userId: actor.id,
        targetUserId: userId,
        request,
      }),
    ],
    async () => conflict(`${nameOf(target)}'s music partner access has just changed. Please reload and try again.`),
  );
  await noticeQuietly(
    userId,
    next ? "You are now a music partner" : "Music partner access removed",
    next ? "You can now submit music under Submit Music and follow it under Music Submissions." : "Your music partner access has been removed by an admin.",
    actor.id,
  );
  return next ? `${nameOf(target)} is now a music partner.` : `${nameOf(target)} is no longer a music partner.`;
}

/** The admin role row, once: a second grant inserts nothing (and so its batch does not hold). */
const insertAdminRole = (userId: string) => db().insert(userRoles).values({ id: crypto.randomUUID(), userId, role: "admin" }).onConflictDoNothing();

export async function grantAdmin(actor: Actor, userId: string, request: Request): Promise<string> {
  authorize(actor, "user", "grantAdmin");
  const target = await targetOrThrow(userId);
  const already = () => conflict(`${nameOf(target)} is already an admin.`);
  if (target.isAdmin) throw already();
  if (target.isBanned) throw conflict("Lift the ban before granting admin.");
  await runGuarded(
    [
      insertAdminRole(userId),
      changedOnce(),
      // A role change ends the user's sessions (SECURITY.md): the next sign-in carries the new role.
      ...endSessionsQuery(userId, "role_changed"),
      auditQuery({ eventType: "admin_role_granted", severity: "high", userId: actor.id, targetUserId: userId, request }),
    ],
    async () => already(),
  );
  await afterSessionsEnded(userId);
  await noticeQuietly(userId, "You are now an admin", "An admin gave you access to the admin console. Sign in again to use it.", actor.id);
  return `${nameOf(target)} is now an admin.`;
}

export async function revokeAdmin(actor: Actor, userId: string, request: Request): Promise<string> {
  authorize(actor, "user", "revokeAdmin");
  if (userId === actor.id) throw invalid("You cannot remove your own admin role.");
  const target = await targetOrThrow(userId);
  const notAdmin = () => conflict(`${nameOf(target)} is not an admin.`);
  if (!target.isAdmin) throw notAdmin();
  await runGuarded(
    [
      precondition(and(holdsAdmin(actor.id), anotherActiveAdminRemains(userId))),
      db()
        .delete(userRoles)
        .where(and(eq(userRoles.userId, userId), eq(userRoles.role, "admin"))),
      changedOnce(),
      ...endSessionsQuery(userId, "role_changed"),
      auditQuery({ eventType: "admin_role_revoked", severity: "high", userId: actor.id, targetUserId: userId, request }),
    ],
    async () => ((await loadTarget(userId))?.isAdmin === false ? notAdmin() : conflict(LAST_ADMIN)),
  );
  await afterSessionsEnded(userId);
  await noticeQuietly(userId, "Admin access removed", "Your admin role has been removed by another admin.", actor.id);
  return `${nameOf(target)} is no longer an admin.`;
}

export async function endUserSessions(actor: Actor, userId: string, request: Request): Promise<string> {
  authorize(actor, "user", "endSessions");
  const target = await targetOrThrow(userId);
  await db().batch([
    ...endSessionsQuery(userId, "ended_by_admin"),
    auditQuery({ eventType: "sessions_ended_by_admin", severity: "medium", userId: actor.id, targetUserId: userId, request }),
  ]);
  await afterSessionsEnded(userId);
  await noticeQuietly(userId, "You were signed out", "An admin ended your sessions on every device. Sign in again to continue.", actor.id);
  return `${nameOf(target)} is signed out everywhere.`;
}

/** One entry point for the /admin action: what the toast says when it worked. */
export async function performUserAction(actor: Actor, input: UserActionInput, request: Request): Promise<string> {
  switch (input.intent) {
    case "delete_account": {
      const { dueAt } = await requestAccountDeletionFor(actor, input.userId, request);
      return `The account is scheduled for deletion on ${dueAt.slice(0, 10)}; its sessions ended and the person was e-mailed.`;
    }
    case "approve":
      return approveUser(actor, input.userId, request);
    case "reject":
      return rejectUser(actor, input.userId, input.reason, request);
    case "ban":
      return banUser(actor, input.userId, input.reason, request);
    case "unban":
      return unbanUser(actor, input.userId, input.reason, request);
    case "toggle_music_partner":
      return toggleMusicPartner(actor, input.userId, request);
    case "grant_admin":
      return grantAdmin(actor, input.userId, request);
    case "revoke_admin":
      return revokeAdmin(actor, input.userId, request);
    case "end_sessions":
      return endUserSessions(actor, input.userId, request);
  }
}

// ---------------------------------------------------------------------------------------------
// Break-glass recovery (the admin module proves the deployment's secret, then calls these)
// ---------------------------------------------------------------------------------------------

/** The account recovery would make an admin, looked up by e-mail on every attempt (same work). */
export async function accountForRecovery(email: string): Promise<{ id: string; isAdmin: boolean } | null> {
  const row = await db().select({ id: users.id, isAdmin: isAdminColumn() }).from(users).where(eq(users.email, email)).get();
  return row ?? null;
}

/**
 * Grants the admin role through /admin-recovery: the one grant without an acting admin, so only
 * the admin module's `recoverAdmin` calls it, after the recovery secret matched. Ends the
 * account's sessions, e-mails the account (a leaked secret is noticed) and audits it critical.
 */
export async function grantAdminThroughRecovery(account: { id: string; isAdmin: boolean }, email: string, request: Request): Promise<void> {
  await db().batch([
    insertAdminRole(account.id),
    // A role change ends the account's sessions; the person signs in again with the new role.
    ...endSessionsQuery(account.id, "role_changed"),
    emailQuery({
      to: email,
      kind: "admin_recovery",
      subject: `Admin access granted on ${appName()}`,
      text: `Admin access to ${appName()} was granted to this account through the recovery page (${appOrigin()}/admin-recovery).\n\nIf this was not you or your team, the deployment's recovery secret is known to someone else: rotate ADMIN_RECOVERY_SECRET and review the admins at once.`,
    }),
    auditQuery({
      eventType: "admin_recovery_granted",
      severity: "critical",
      userId: account.id,
      targetUserId: account.id,
      request,
      details: { email, already_admin: account.isAdmin },
    }),
  ]);
  await afterSessionsEnded(account.id);
}
