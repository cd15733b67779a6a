import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { agencies, agencyManagerInvitations, agencyUsers } from "~/db/schema";
import { conflict, forbidden, notFound, rateLimited } from "~/lib/errors";
import { authorize, isApproved, type Actor } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { appLink, emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { noticeQuietly } from "./access.server";
import { AGENCY_MESSAGES, INVITATION_MESSAGES, MANAGER_INVITED } from "./schema";

// Managers join by invitation (issue 11, item 4; docs/decisions/0065). Adding a manager never
// looks the e-mail up: it stores an invitation (the SHA-256 of a 160-bit token) and e-mails the
// link, and answers MANAGER_INVITED whatever the address, so the dashboard cannot be used to learn
// who has an account or who is banned. Whoever follows the link must be signed in with that
// verified e-mail, approved and not banned; accepting consumes the invitation with a guarded
// update, so parallel accepts make one manager row.

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A second invitation to the same address within this time sends nothing (parallel clicks: one e-mail). */
export const INVITATION_RESEND_MS = 60 * 1000;
/** Invitations an agency may send per hour (an exact counter: they send e-mail to any address). */
export const INVITATION_LIMIT = { maxAttempts: 20, windowMs: 60 * 60 * 1000 };

/** The invitation page's path for a token (the e-mail's link is APP_ORIGIN plus this). */
export const invitationPath = (token: string) => `/agency-invitation?token=${encodeURIComponent(token)}`;

/**
 * Invites `email` to manage the agency (the caller has authorized the actor on it). Stores or
 * renews the one pending invitation of this agency and address and e-mails its link, with the
 * audit row, in one batch. Same answer for every address.
 */
export async function inviteManager(actor: Actor, agencyId: string, email: string, request: Request): Promise<string> {
  const limit = await consume("agency-manager", `agency:${agencyId}`, INVITATION_LIMIT);
  if (!limit.allowed) {
    throw rateLimited(limit.retryAfterSeconds, "This agency has sent too many invitations. Please try again later.", AGENCY_MESSAGES.addUser);
  }
  const agency = await db().select({ name: agencies.name }).from(agencies).where(eq(agencies.id, agencyId)).get();
  if (!agency) throw notFound("Agency not found.");
  const token = randomToken();
  const now = new Date();
  const fields = {
    tokenHash: sha256Hex(token),
    invitedBy: actor.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
  };
  const link = appLink(invitationPath(token));
  try {
    await db().batch([
      db()
        .insert(agencyManagerInvitations)
        .values({ id: crypto.randomUUID(), agencyId, email, ...fields })
        .onConflictDoUpdate({
          target: [agencyManagerInvitations.agencyId, agencyManagerInvitations.email],
          targetWhere: isNull(agencyManagerInvitations.acceptedAt),
          set: fields,
          // Renewed (a new token; the old link stops working) unless it was sent a moment ago.
          setWhere: lt(agencyManagerInvitations.createdAt, new Date(now.getTime() - INVITATION_RESEND_MS).toISOString()),
        }),
      precondition(previousStatementChanged(1)),
      emailQuery({
        to: email,
        kind: "agency_manager_invitation",
        subject: `You are invited to manage ${userText(agency.name)} on ${appName()}`,
        text:
          `You have been invited to manage ${userText(agency.name)} on ${appName()}.\n\n` +
          `If you have an approved ${appName()} account with this e-mail address, sign in and accept the invitation:\n${link}\n\n` +
          "The link works once and expires in 7 days. If you did not expect this invitation, you can ignore this e-mail.\n",
      }),
      auditQuery({
        eventType: "agency_manager_invited",
        severity: "medium",
        userId: actor.id,
        request,
        details: { agency_id: agencyId, email },
      }),
    ]);
  } catch (error) {
    // The same address was invited a moment ago (e.g. a double click): that e-mail stands.
    if (!isPreconditionFailure(error)) throw error;
  }
  return MANAGER_INVITED;
}

type InvitationRow = {
  id: string;
  agencyId: string;
  agencyName: string;
  email: string;
  invitedBy: string | null;
  expiresAt: string;
  acceptedAt: string | null;
};

async function invitationOf(token: string): Promise<InvitationRow | null> {
  const row = await db()
    .select({
      id: agencyManagerInvitations.id,
      agencyId: agencyManagerInvitations.agencyId,
      agencyName: agencies.name,
      email: agencyManagerInvitations.email,
      invitedBy: agencyManagerInvitations.invitedBy,
      expiresAt: agencyManagerInvitations.expiresAt,
      acceptedAt: agencyManagerInvitations.acceptedAt,
    })
    .from(agencyManagerInvitations)
    .innerJoin(agencies, eq(agencies.id, agencyManagerInvitations.agencyId))
    .where(eq(agencyManagerInvitations.tokenHash, sha256Hex(token)))
    .get();
  return row ?? null;
}

export type InvitationView = { kind: "invalid" } | { kind: "wrongAccount" } | { kind: "unverified" | "unapproved" | "ready"; agencyName: string };

const normalized = (email: string) => email.trim().toLowerCase();

/**
 * What the signed-in actor may do with this invitation. The agency is named only to the person
 * it was sent to (the signed-in account's e-mail matches).
 */
async function viewOf(actor: Actor & { emailVerified: boolean }, token: string): Promise<{ view: InvitationView; row: InvitationRow | null }> {
  const row = await invitationOf(token);
  if (!row || row.acceptedAt || Date.parse(row.expiresAt) <= Date.now()) return { view: { kind: "invalid" }, row: null };
  if (normalized(actor.email) !== row.email) return { view: { kind: "wrongAccount" }, row: null };
  const agencyName = row.agencyName;
  if (!actor.emailVerified) return { view: { kind: "unverified", agencyName }, row };
  if (actor.isBanned || !isApproved(actor)) return { view: { kind: "unapproved", agencyName }, row };
  return { view: { kind: "ready", agencyName }, row };
}

/** The invitation page: whether the signed-in user can accept, and why not. */
export async function invitationView(actor: Actor & { emailVerified: boolean }, token: string): Promise<InvitationView> {
  return token ? (await viewOf(actor, token)).view : { kind: "invalid" };
}

const titled = { title: AGENCY_MESSAGES.addUser };

/**
 * Accepts an invitation: the signed-in user's verified e-mail must be the invited one, the account
 * approved and not banned. One guarded update consumes it (unaccepted, unexpired, that e-mail)
 * and, in the same batch, makes the user a manager; a second accept finds nothing to consume.
 */
export async function acceptInvitation(
  actor: Actor & { emailVerified: boolean },
  token: string,
  request: Request,
): Promise<{ agencyId: string; agencyName: string }> {
  const { view, row } = await viewOf(actor, token);
  if (view.kind === "invalid" || !row) {
    throw view.kind === "wrongAccount" ? forbidden(INVITATION_MESSAGES.wrongAccount, titled) : notFound(INVITATION_MESSAGES.invalid, titled);
  }
  if (view.kind === "unverified") throw forbidden(INVITATION_MESSAGES.unverified, titled);
  if (view.kind === "unapproved") throw forbidden(INVITATION_MESSAGES.unapproved, titled);
  authorize(actor, "agency", "acceptInvitation");
  const now = new Date().toISOString();
  try {
    await db().batch([
      db()
        .update(agencyManagerInvitations)
        .set({ acceptedAt: now, acceptedBy: actor.id })
        .where(
          and(
            eq(agencyManagerInvitations.id, row.id),
            isNull(agencyManagerInvitations.acceptedAt),
            gt(agencyManagerInvitations.expiresAt, now),
            eq(agencyManagerInvitations.email, normalized(actor.email)),
          ),
        ),
      precondition(previousStatementChanged(1)),
      // Already a manager (e.g. the applicant): the invitation is used up all the same.
      db()
        .insert(agencyUsers)
        .values({ id: crypto.randomUUID(), agencyId: row.agencyId, userId: actor.id, role: "manager", createdBy: row.invitedBy })
        .onConflictDoNothing({ target: [agencyUsers.agencyId, agencyUsers.userId] }),
      auditQuery({
        eventType: "agency_manager_added",
        severity: "medium",
        userId: actor.id,
        targetUserId: actor.id,
        request,
        details: { agency_id: row.agencyId, invitation_id: row.id, invited_by: row.invitedBy },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(INVITATION_MESSAGES.invalid, titled);
    throw error;
  }
  if (row.invitedBy && row.invitedBy !== actor.id) {
    await noticeQuietly(
      row.invitedBy,
      `${actor.email} manages ${row.agencyName}`,
      `${actor.email} accepted your invitation to manage ${row.agencyName}.`,
      actor.id,
    );
  }
  return { agencyId: row.agencyId, agencyName: row.agencyName };
}

/** Invitations still waiting for an answer, for the dashboard (managers see whom they invited). */
export function pendingInvitationsQuery(agencyId: string) {
  return db()
    .select({ id: agencyManagerInvitations.id, email: agencyManagerInvitations.email, expiresAt: agencyManagerInvitations.expiresAt })
    .from(agencyManagerInvitations)
    .where(
      and(
        eq(agencyManagerInvitations.agencyId, agencyId),
        isNull(agencyManagerInvitations.acceptedAt),
        gt(agencyManagerInvitations.expiresAt, new Date().toISOString()),
      ),
    )
    .orderBy(agencyManagerInvitations.createdAt)
    .limit(50);
}
