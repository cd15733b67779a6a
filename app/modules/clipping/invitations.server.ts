import { and, eq, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { clipperInvitations, clipperLinks } from "~/db/schema";
import { CLIPPER_DEFAULT_SHARE_BPS } from "~/lib/constants";
import { conflict, invalid, notFound, rateLimited } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { personById } from "~/modules/accounts/accounts.server";
import { notifyUser } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { hashOf, INVITATION_EMAIL_LIMIT, INVITATION_LIMIT, INVITATION_TTL_MS, invitationLink, normalizedEmail } from "./invitation-codes.server";
import { CLIPPING_MESSAGES as M } from "./messages";

// Clipper invitations (issue 27; docs/decisions/0205). A creator's public referral code never
// grants anything: a clipper joins through an invitation of its own — a single-use code of 160
// bits (only its SHA-256 is stored), valid for 7 days, optionally bound to one e-mail address (and
// then e-mailed there) — and then waits for the creator's approval. Only approval makes the
// clipper link that opens the source folder (links.server.ts folderAccess).
//
//   open ──accept──▶ accepted ──approve──▶ approved (link made or restored)
//     │                  └──────decline──▶ declined
//     └──withdraw──▶ withdrawn            (an open one past expires_at is expired)
//
// Every transition is a guarded update (WHERE status = …) whose row count decides whether its
// audit row, notification and e-mail follow: parallel clicks do a thing once.
//
// This file is the creator's side: create, withdraw, approve, decline. The code itself is in
// invitation-codes.server.ts, the lists in invitation-lists.server.ts, the invited person's side in
// invitation-accept.server.ts, the link kept in a cookie in invite-cookie.server.ts.

/** A second invitation to the same address within this time changes nothing (a double click). */
const RESEND_MS = 60 * 1000;

// ---------------------------------------------------------------------------------------------
// The creator: create, withdraw, approve, decline
// ---------------------------------------------------------------------------------------------

export type CreatedInvitation = {
  /** The link, shown once (only its hash is stored). Null when nothing new was made (the same address a moment ago). */
  link: string | null;
  email: string | null;
  /** Whether the link went out by e-mail (an address receives one invitation e-mail an hour). */
  emailed: boolean;
};

/**
 * A new invitation. With an e-mail: bound to that address (only an account with it can accept),
 * sent there through the outbox unless the address received one within the hour, and renewing
 * this creator's open invitation to that address (its old link stops working). One batch.
 */
export async function createInvitation(actor: Actor, request: Request, input: { email: string }): Promise<CreatedInvitation> {
  authorize(actor, "clipping", "use");
  const email = input.email ? normalizedEmail(input.email) : null;
  if (email && email === normalizedEmail(actor.email)) throw invalid(M.invitationOwnEmail, { fieldErrors: { email: M.invitationOwnEmail } });
  const limit = await consume("clipper-invite", `user:${actor.id}`, INVITATION_LIMIT);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, M.tooManyInvitations);

  const code = randomToken();
  const link = invitationLink(code);
  const now = new Date();
  const fields = {
    codeHash: hashOf(code),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
  };
  const emailed = email ? (await consume("clipper-invite:to", `email:${sha256Hex(email)}`, INVITATION_EMAIL_LIMIT)).allowed : false;
  const creator = await personById(actor.id);
  const creatorName = creator?.fullName || "A creator";
  const insert = db()
    .insert(clipperInvitations)
    .values({ id: crypto.randomUUID(), creatorUserId: actor.id, email, ...fields });
  try {
    const [rows] = await db().batch([
      (email
        ? insert.onConflictDoUpdate({
            target: [clipperInvitations.creatorUserId, clipperInvitations.email],
            targetWhere: sql`status = 'open' and email is not null`,
            set: fields,
            setWhere: lt(clipperInvitations.createdAt, new Date(now.getTime() - RESEND_MS).toISOString()),
          })
        : insert
      ).returning({ id: clipperInvitations.id }),
      precondition(previousStatementChanged(1)),
      ...(email && emailed
        ? [
            emailQuery({
              to: email,
              kind: "clipper_invitation",
              subject: `${userText(creatorName)} invited you to clip for them on ${appName()}`,
              action: link,
              text:
                `${userText(creatorName)} invited you to cut clips from their source videos on ${appName()}, under the Clipper Agreement ` +
                `(by default 70% of the clip revenue to you, 30% to the creator).\n\n` +
                `Accept the invitation here (sign up, or sign in with this e-mail address):\n${link}\n\n` +
                `The link works once and expires in 7 days. ${userText(creatorName)} approves you before you can use their videos.\n\n` +
                "If you did not expect this invitation, you can ignore this e-mail.\n",
            }),
          ]
        : []),
      auditQuery({
        eventType: "clipper_invitation_created",
        userId: actor.id,
        request,
        details: { bound_to_email: Boolean(email), emailed },
      }),
    ]);
    if (rows.length !== 1) throw new Error("invitation not stored");
  } catch (error) {
    // The same address a moment ago (a double click): that invitation and its e-mail stand.
    if (isPreconditionFailure(error)) return { link: null, email, emailed: false };
    throw error;
  }
  return { link, email, emailed };
}
async function ownInvitation(actor: Actor, invitationId: string) {
  authorize(actor, "clipping", "use");
  const row = await db().select().from(clipperInvitations).where(eq(clipperInvitations.id, invitationId)).get();
  authorize(actor, "clipping", "manageOwn", { ownerId: row?.creatorUserId ?? null });
  if (!row) throw notFound(M.invitationNotFound);
  return row;
}

/** A guarded transition of one invitation, with its audit row, in one batch: a second answer is a 409. */
async function transition(
  row: typeof clipperInvitations.$inferSelect,
  from: "open" | "accepted",
  to: "withdrawn" | "approved" | "declined",
  extra: BatchItem<"sqlite">[],
  audit: Parameters<typeof auditQuery>[0],
): Promise<string> {
  const now = new Date().toISOString();
  try {
    await db().batch([
      db()
        .update(clipperInvitations)
        .set({ status: to, decidedAt: now })
        .where(and(eq(clipperInvitations.id, row.id), eq(clipperInvitations.status, from))),
      precondition(previousStatementChanged(1)),
      ...extra,
      auditQuery(audit),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.invitationAnswered);
    throw error;
  }
  return now;
}

/** The creator withdraws an invitation nobody used yet: its link stops working. */
export async function withdrawInvitation(actor: Actor, request: Request, invitationId: string): Promise<void> {
  const row = await ownInvitation(actor, invitationId);
  if (row.status !== "open") throw conflict(M.invitationAnswered);
  await transition(row, "open", "withdrawn", [], {
    eventType: "clipper_invitation_withdrawn",
    userId: actor.id,
    request,
    details: { invitation_id: row.id },
  });
}

/**
 * The creator answers the person who accepted: approving makes the clipper link (or restores a
 * revoked one) in the same batch, and only now does the folder open to them; declining makes
 * none. Either way they are told. Of two answers at once, one wins (409 for the other).
 */
export async function answerClipperRequest(actor: Actor, request: Request, input: { invitationId: string; decision: "approve" | "decline" }): Promise<void> {
  const row = await ownInvitation(actor, input.invitationId);
  if (row.status !== "accepted" || !row.acceptedBy) throw conflict(M.invitationAnswered);
  const clipperUserId = row.acceptedBy;
  const approve = input.decision === "approve";
  const now = new Date().toISOString();
  const link = db()
    .insert(clipperLinks)
    .values({ id: crypto.randomUUID(), creatorUserId: row.creatorUserId, clipperUserId, clipperShareBps: CLIPPER_DEFAULT_SHARE_BPS, approvedAt: now })
    .onConflictDoUpdate({
      target: [clipperLinks.creatorUserId, clipperLinks.clipperUserId],
      set: { status: "active", revokedAt: null, approvedAt: now },
      setWhere: eq(clipperLinks.status, "revoked"),
    });
  await transition(row, "accepted", approve ? "approved" : "declined", approve ? [link] : [], {
    eventType: approve ? "clipper_approved" : "clipper_declined",
    severity: approve ? "medium" : "low",
    userId: actor.id,
    targetUserId: clipperUserId,
    request,
    details: { invitation_id: row.id },
  });
  const creatorName = (await personById(actor.id))?.fullName || "The creator";
  await notifyUser(clipperUserId, {
    title: approve ? "Clipper request approved" : "Clipper request declined",
    content: approve
      ? `${creatorName} approved you as a clipper: their source folder is open on Clipping.`
      : `${creatorName} declined your request to clip for them.`,
    kind: "clipping",
  });
}
