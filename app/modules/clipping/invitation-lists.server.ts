import { and, desc, eq, or, type SQL } from "drizzle-orm";
import { clipperInvitations } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { type PersonSummary, peopleByIds } from "~/modules/accounts/accounts.server";
import { db } from "~/platform/db.server";
import type { InvitationLookup } from "./invitation-codes.server";
import type { InvitationRow, WaitingRequest } from "./types";

// The clipper invitations as people see them (docs/decisions/0205): the creator's list, the
// requests a person waits on, and where each of their requests stands.

/** What a row's state is now: an open invitation past its expiry is expired. */
function stateOf(row: { status: (typeof clipperInvitations.$inferSelect)["status"]; expiresAt: string }, now = Date.now()): InvitationRow["state"] {
  return row.status === "open" && Date.parse(row.expiresAt) <= now ? "expired" : row.status;
}

/** The creator's invitations as stored, newest first (the page reads them in its batch: invitationViews; page.server.ts builds it once). */
export function invitationRowsQuery(creatorUserId: string | SQL<string | null>) {
  return db()
    .select()
    .from(clipperInvitations)
    .where(eq(clipperInvitations.creatorUserId, creatorUserId))
    .orderBy(desc(clipperInvitations.createdAt))
    .limit(100);
}

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

/** The invitations a person used that wait for the creator's answer, as stored (the page reads them in its batch: waitingViews; page.server.ts builds it once). */
export function waitingRowsQuery(clipperUserId: string | SQL<string | null>) {
  return db()
    .select({ id: clipperInvitations.id, creatorUserId: clipperInvitations.creatorUserId, acceptedAt: clipperInvitations.acceptedAt })
    .from(clipperInvitations)
    .where(and(eq(clipperInvitations.acceptedBy, clipperUserId), eq(clipperInvitations.status, "accepted")))
    .orderBy(desc(clipperInvitations.acceptedAt))
    .limit(50);
}

/** The waiting requests as the page shows them, with their creators' names. */
export function waitingViews(
  rows: readonly { id: string; creatorUserId: string; acceptedAt: string | null }[],
  people: ReadonlyMap<string, PersonSummary>,
): WaitingRequest[] {
  return rows.map((r) => ({ id: r.id, creatorName: people.get(r.creatorUserId)?.fullName || "A creator", acceptedAt: r.acceptedAt ?? "" }));
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
