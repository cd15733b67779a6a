import { and, desc, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { clipperInvitations, clipperLinks } from "~/db/schema";
import { CLIPPER_DEFAULT_SHARE_BPS } from "~/lib/constants";
import { conflict, forbidden, invalid, notFound, rateLimited } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { type PersonSummary, peopleByIds, personById } from "~/modules/accounts/accounts.server";
import { notifyUser, notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQuery, auditQueryWhen } from "~/platform/audit.server";
import { readCookie, serializeCookie } from "~/platform/cookies.server";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { builtOnce, db } from "~/platform/db.server";
import { appLink, emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { CLIPPING_MESSAGES as M } from "./messages";
import type { InvitationRow, PendingInvite, WaitingRequest } from "./types";

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

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Invitations a creator may create per hour (an exact counter: they can send e-mail). */
export const INVITATION_LIMIT = { maxAttempts: 20, windowMs: 60 * 60 * 1000 };
/** Invitation e-mails one address may receive per hour, from every creator together. */
export const INVITATION_EMAIL_LIMIT = { maxAttempts: 1, windowMs: 60 * 60 * 1000 };
/** A second invitation to the same address within this time changes nothing (a double click). */
const RESEND_MS = 60 * 1000;

/** The invitation link (spec: /auth?ref=CODE&clipper=1), on the configured public origin. */
export const invitationLink = (code: string) => appLink(`/auth?ref=${encodeURIComponent(code)}&clipper=1`);

const CODE = /^[a-z0-9]{20,64}$/;

/** An invitation code as typed or pasted: the code, or a whole invitation link. Null if neither. */
export function invitationCodeOf(raw: string): string | null {
  let text = raw.trim();
  if (/[?&]ref=/.test(text)) {
    try {
      text = new URL(text, "https://x.invalid").searchParams.get("ref") ?? "";
    } catch {
      return null;
    }
  }
  const code = text.toLowerCase();
  return CODE.test(code) ? code : null;
}

const normalizedEmail = (email: string) => email.trim().toLowerCase();
const hashOf = (code: string) => sha256Hex(code);

// ---------------------------------------------------------------------------------------------
// The creator: create, list, withdraw, approve, decline
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

/** What a row's state is now: an open invitation past its expiry is expired. */
function stateOf(row: { status: (typeof clipperInvitations.$inferSelect)["status"]; expiresAt: string }, now = Date.now()): InvitationRow["state"] {
  return row.status === "open" && Date.parse(row.expiresAt) <= now ? "expired" : row.status;
}

/** The creator's invitations as stored, newest first (the page reads them in its batch: invitationViews). */
export function invitationRowsOf(creatorUserId: string) {
  return invitationRowsQuery({ creatorUserId });
}

const invitationRowsQuery = builtOnce((slot) =>
  db()
    .select()
    .from(clipperInvitations)
    .where(eq(clipperInvitations.creatorUserId, slot("creatorUserId")))
    .orderBy(desc(clipperInvitations.createdAt))
    .limit(100),
);

/** The people an invitation list names: who used each invitation. */
export const invitationPeople = (rows: readonly InvitationLookup[]): string[] => rows.flatMap((r) => (r.acceptedBy ? [r.acceptedBy] : []));

/** The creator's invitations as the page shows them, newest first: open, expired, waiting for approval, answered, withdrawn. */
export function invitationViews(rows: readonly InvitationLookup[], people: ReadonlyMap<string, PersonSummary>): InvitationRow[] {
  return rows.map((r) => {
    const person = r.acceptedBy ? people.get(r.acceptedBy) : undefined;
    return {
      id: r.id,
      email: r.email,
      state: stateOf(r),
      createdAt: r.createdAt,
      expiresAt: r.expiresAt,
      acceptedAt: r.acceptedAt,
      decidedAt: r.decidedAt,
      personName: person ? person.fullName || person.email : null,
      personEmail: person?.email ?? null,
      personApproved: person ? person.approvalStatus === "approved" && !person.isBanned : null,
    };
  });
}

/** The invitations a person used that wait for the creator's answer, as stored (the page reads them in its batch: waitingViews). */
export function waitingRowsOf(clipperUserId: string) {
  return waitingRowsQuery({ clipperUserId });
}

const waitingRowsQuery = builtOnce((slot) =>
  db()
    .select({ id: clipperInvitations.id, creatorUserId: clipperInvitations.creatorUserId, acceptedAt: clipperInvitations.acceptedAt })
    .from(clipperInvitations)
    .where(and(eq(clipperInvitations.acceptedBy, slot("clipperUserId")), eq(clipperInvitations.status, "accepted")))
    .orderBy(desc(clipperInvitations.acceptedAt))
    .limit(50),
);

/** The waiting requests as the page shows them, with their creators' names. */
export function waitingViews(
  rows: readonly { id: string; creatorUserId: string; acceptedAt: string | null }[],
  people: ReadonlyMap<string, PersonSummary>,
): WaitingRequest[] {
  return rows.map((r) => ({ id: r.id, creatorName: people.get(r.creatorUserId)?.fullName || "A creator", acceptedAt: r.acceptedAt ?? "" }));
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

// ---------------------------------------------------------------------------------------------
// The invited person: look up, accept (signed in, or within a sign-up), the kept link
// ---------------------------------------------------------------------------------------------

type InvitationLookup = typeof clipperInvitations.$inferSelect;

async function invitationByCode(code: string | null): Promise<InvitationLookup | null> {
  if (!code) return null;
  return (
    (await db()
      .select()
      .from(clipperInvitations)
      .where(eq(clipperInvitations.codeHash, hashOf(code)))
      .get()) ?? null
  );
}

/** Why an invitation cannot be used now (null when it can), for a person with this id and e-mail. */
function refusalOf(row: InvitationLookup | null, person: { id: string | null; email: string | null }): string | null {
  if (!row) return M.invitationInvalid;
  if (row.status === "withdrawn") return M.invitationWithdrawn;
  if (row.status !== "open") return row.acceptedBy && row.acceptedBy === person.id ? M.requestWaiting : M.invitationUsed;
  if (Date.parse(row.expiresAt) <= Date.now()) return M.invitationExpired;
  if (person.id && row.creatorUserId === person.id) return M.invitationOwn;
  if (row.email && person.email && normalizedEmail(person.email) !== row.email) return M.invitationWrongEmail;
  return null;
}

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

// The link kept for a visitor (signed in or not) until they can accept it on /clipping.

export const CLIPPER_INVITE_COOKIE = "sb_clipper_invite";

function inviteCookie(request: Request, code: string, maxAge: number): string {
  return serializeCookie(CLIPPER_INVITE_COOKIE, code, { maxAge, secure: new URL(request.url).protocol === "https:", path: "/" });
}

/** Keeps an invitation code for /clipping (7 days, like the invitation): set when its link is opened. */
export function keepInvitationCookie(request: Request, code: string): string {
  return inviteCookie(request, code, INVITATION_TTL_MS / 1000);
}

export function clearClipperInviteCookie(request: Request): string {
  return inviteCookie(request, "", 0);
}

/**
 * For /auth's loader: a signed-in visitor is sent to /dashboard (spec); when they came by a clipper
 * invitation link, the code is kept in a cookie for /clipping to offer. Rethrows `thrown`.
 */
export function keepClipperInvite(request: Request): (thrown: unknown) => never {
  return (thrown) => {
    const url = new URL(request.url);
    const code = invitationCodeOf(url.searchParams.get("ref") ?? "");
    const redirect = thrown instanceof Response && thrown.status >= 300 && thrown.status < 400;
    if (redirect && code && url.searchParams.get("clipper") === "1") thrown.headers.append("Set-Cookie", keepInvitationCookie(request, code));
    throw thrown;
  };
}

/** The invitation kept from a link, when this person can accept it now. */
export async function pendingInvite(actor: Actor, request: Request): Promise<PendingInvite | null> {
  const code = invitationCodeOf(readCookie(request, CLIPPER_INVITE_COOKIE) ?? "");
  const row = await invitationByCode(code);
  if (!row || !code || refusalOf(row, { id: actor.id, email: actor.email })) return null;
  const creator = await personById(row.creatorUserId);
  return { code, creatorName: creator?.fullName || "A creator" };
}

/** Where a person's clipper requests stand with each creator (the waiting page says it, issue 42 §3). */
export type ClipperRequestStep = { creatorName: string; step: "waiting" | "approved" | "declined" };

/**
 * The creators whose invitations this person used, and each creator's answer, newest first: read
 * by the person themselves, also while their account waits for the admin (their own rows only).
 */
export async function clipperRequestsOf(actor: Actor): Promise<ClipperRequestStep[]> {
  authorize(actor, "account", "read");
  const rows = await db()
    .select({ creatorUserId: clipperInvitations.creatorUserId, status: clipperInvitations.status })
    .from(clipperInvitations)
    .where(
      and(
        eq(clipperInvitations.acceptedBy, actor.id),
        or(eq(clipperInvitations.status, "accepted"), eq(clipperInvitations.status, "approved"), eq(clipperInvitations.status, "declined")),
      ),
    )
    .orderBy(desc(clipperInvitations.acceptedAt))
    .limit(10);
  const people = await peopleByIds([...new Set(rows.map((r) => r.creatorUserId))]);
  return rows.map((r) => ({
    creatorName: people.get(r.creatorUserId)?.fullName?.trim() || "The creator",
    step: r.status === "approved" ? "approved" : r.status === "declined" ? "declined" : "waiting",
  }));
}
