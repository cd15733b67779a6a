import { and, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { clipperInvitations, clipperLinks } from "~/db/schema";
import { conflict, forbidden, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { personById } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQuery, auditQueryWhen } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { type InvitationLookup, hashOf, invitationByCode, invitationCodeOf, normalizedEmail, refusalOf } from "./invitation-codes.server";
import { CLIPPING_MESSAGES as M } from "./messages";

// The invited person uses a clipper invitation (docs/decisions/0205): what /auth shows for it,
// accepting it within a sign-up or signed in, and telling the creator a request waits for them.
// One guarded update (open, unexpired, that address or none, not the creator) decides.

export type InvitationForSignUp = { code: string; creatorName: string; problem: null } | { code: null; creatorName: null; problem: string };

/**
 * What /auth?ref=CODE&clipper=1 shows before anyone signs in: the inviting creator's name, or why
 * the invitation cannot be used. Null when `ref` does not even look like an invitation code (e.g. a
 * creator's public code in an old link: then it is only a referral, and no clipper option is offered).
 */
export async function invitationForSignUp(ref: string): Promise<InvitationForSignUp | null> {
  const code = invitationCodeOf(ref);
  if (!code) return null;
  const row = await invitationByCode(code);
  const problem = refusalOf(row, { id: null, email: null });
  if (problem || !row) return { code: null, creatorName: null, problem: problem ?? M.invitationInvalid };
  const creator = await personById(row.creatorUserId);
  return { code, creatorName: creator?.fullName || "A creator", problem: null };
}

/** The guarded update that uses an invitation for `userId` with `email` (open, unexpired, that address or none, not the creator). */
function acceptQuery(code: string, userId: string, email: string, now: string) {
  return db()
    .update(clipperInvitations)
    .set({ status: "accepted", acceptedBy: userId, acceptedAt: now })
    .where(
      and(
        eq(clipperInvitations.codeHash, hashOf(code)),
        eq(clipperInvitations.status, "open"),
        gt(clipperInvitations.expiresAt, now),
        or(isNull(clipperInvitations.email), eq(clipperInvitations.email, normalizedEmail(email))),
        ne(clipperInvitations.creatorUserId, userId),
      ),
    );
}

/**
 * For a sign-up batch (password or Google) that chose to join as a clipper: uses the invitation
 * for the new account if it still can be used; the account is created either way (no abort). The
 * audit row follows only when the invitation was used.
 */
export function acceptInvitationAtSignUpQueries(rawCode: string, userId: string, email: string, request: Request) {
  const code = invitationCodeOf(rawCode);
  if (!code) return [];
  return [
    acceptQuery(code, userId, email, new Date().toISOString()),
    auditQueryWhen({ eventType: "clipper_invitation_accepted", userId, request, details: { at_sign_up: true } }, sql`changes() = 1`),
  ];
}

/** After such a sign-up: the creator hears of a request waiting for them (nothing when it was not used). */
export async function afterSignUpAcceptance(rawCode: string, userId: string): Promise<void> {
  const row = await invitationByCode(invitationCodeOf(rawCode));
  if (row?.status === "accepted" && row.acceptedBy === userId) await tellCreator(row, userId);
}

async function tellCreator(row: InvitationLookup, clipperUserId: string): Promise<void> {
  const person = await personById(clipperUserId);
  await notifyUserQuietly(row.creatorUserId, {
    title: "New clipper request",
    content: `${person?.fullName || person?.email || "Someone"} accepted your clipper invitation. Approve or decline them on Clipping: they cannot use your source folder until you approve.`,
    kind: "clipping",
  });
}

/**
 * A signed-in user accepts an invitation with the Clipper Agreement ticked: it is used up for them
 * and they wait for the creator's approval (no access yet). One guarded update decides: of two
 * parallel accepts, one wins; the other reads why.
 */
export async function acceptInvitation(actor: Actor, request: Request, input: { code: string; acceptClipperAgreement: boolean }): Promise<void> {
  authorize(actor, "clipping", "use");
  if (!input.acceptClipperAgreement) {
    throw invalid(M.agreementRequired, { title: "Clipper Agreement Required", fieldErrors: { acceptClipperAgreement: M.agreementRequired } });
  }
  const code = invitationCodeOf(input.code);
  const row = await invitationByCode(code);
  const problem = refusalOf(row, { id: actor.id, email: actor.email });
  if (problem || !row || !code) {
    const error = { fieldErrors: { code: problem ?? M.invitationInvalid } };
    if (problem === M.invitationWrongEmail || problem === M.invitationOwn) throw forbidden(problem, error);
    if (problem === M.invitationInvalid || !row) throw notFound(M.invitationInvalid, error);
    throw conflict(problem ?? M.invitationInvalid, error);
  }
  const link = await db()
    .select({ status: clipperLinks.status })
    .from(clipperLinks)
    .where(and(eq(clipperLinks.creatorUserId, row.creatorUserId), eq(clipperLinks.clipperUserId, actor.id)))
    .get();
  if (link?.status === "active") throw conflict(M.alreadyLinked, { fieldErrors: { code: M.alreadyLinked } });
  try {
    await db().batch([
      acceptQuery(code, actor.id, actor.email, new Date().toISOString()),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "clipper_invitation_accepted",
        userId: actor.id,
        targetUserId: row.creatorUserId,
        request,
        details: { invitation_id: row.id },
      }),
    ]);
  } catch (error) {
    const message = String(error) + String((error as { cause?: unknown })?.cause ?? "");
    // A request of this person already waits for the same creator (one at a time).
    if (/UNIQUE.*clipper_invitations/.test(message)) throw conflict(M.requestWaiting, { fieldErrors: { code: M.requestWaiting } });
    if (!isPreconditionFailure(error)) throw error;
    const now = refusalOf(await invitationByCode(code), { id: actor.id, email: actor.email }) ?? M.invitationUsed;
    throw conflict(now, { fieldErrors: { code: now } });
  }
  await tellCreator(row, actor.id);
}
