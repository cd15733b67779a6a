import { and, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { agencies, agencyUsers } from "~/db/schema";
import { conflict, notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import type { AgencyFilter } from "~/modules/admin/schema";
import { agencyMemberCountOf, approvePendingAccountQuery, emailOfUser, fullNameOfUser, personById } from "~/modules/accounts/accounts.server";
import { notifyAccountDecision } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { appOrigin, emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { agencyProfileColumns, managerIdsOf, noticeQuietly } from "./access.server";

// The admin's review of agencies: the list, approve or reject an application, activate or
// deactivate an agency. Each decision is a guarded update (WHERE the agency is in a state it may
// leave) followed in the same batch by a precondition on its row count, so the e-mail, the audit
// row and the notifications follow exactly once, however many admins click at the same time.

export const ADMIN_AGENCIES_PAGE_SIZE = 25;

function filterOf(filter: AgencyFilter): SQL | undefined {
  if (filter === "all") return undefined;
  if (filter === "inactive") return eq(agencies.status, "inactive");
  return eq(agencies.approvalStatus, filter);
}

/** A page of agencies for the admin, pending first, with applicant, manager and creator counts. */
export async function listAgenciesForAdmin(actor: Actor, filter: AgencyFilter, page: number) {
  authorize(actor, "agency", "listAll");
  const where = filterOf(filter);
  const [rows, [total]] = await db().batch([
    db()
      .select({
        ...agencyProfileColumns(),
        rejectionReason: agencies.rejectionReason,
        createdAt: agencies.createdAt,
        ownerEmail: emailOfUser(agencies.userId),
        ownerName: fullNameOfUser(agencies.userId),
        managerCount: db().$count(agencyUsers, eq(agencyUsers.agencyId, agencies.id)),
        creatorCount: agencyMemberCountOf(agencies.id),
      })
      .from(agencies)
      .where(where)
      // Pending first: drizzle has no CASE builder.
      .orderBy(sql`case ${agencies.approvalStatus} when 'pending' then 0 else 1 end`, desc(agencies.createdAt))
      .limit(ADMIN_AGENCIES_PAGE_SIZE)
      .offset((page - 1) * ADMIN_AGENCIES_PAGE_SIZE),
    db().select({ n: count() }).from(agencies).where(where),
  ]);
  const n = total?.n ?? 0;
  return { agencies: rows, total: n, page, pageCount: Math.max(1, Math.ceil(n / ADMIN_AGENCIES_PAGE_SIZE)) };
}

export type AdminAgencyRow = Awaited<ReturnType<typeof listAgenciesForAdmin>>["agencies"][number];

async function agencyOrThrow(agencyId: string) {
  const agency = await db()
    .select({
      id: agencies.id,
      name: agencies.name,
      slug: agencies.slug,
      contactEmail: agencies.contactEmail,
      status: agencies.status,
      approvalStatus: agencies.approvalStatus,
      userId: agencies.userId,
    })
    .from(agencies)
    .where(eq(agencies.id, agencyId))
    .get();
  if (!agency) throw notFound("Agency not found.");
  return agency;
}

/**
 * Runs a decision's batch: its first statement is the guarded update and the second the
 * precondition on its row count. When the update found the agency already decided, the whole
 * batch is rolled back and `already` is thrown. Returns the batch's results.
 */
async function runDecision(batch: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]], already: () => Error | Promise<Error>) {
  try {
    return await db().batch(batch);
  } catch (error) {
    if (isPreconditionFailure(error)) throw await already();
    throw error;
  }
}

/**
 * Approve or reject an application. Approving also approves the applicant's own account when it
 * is still pending: the admin has just vetted that person (docs/decisions/0024-agency-state.md).
 */
export async function reviewAgency(
  actor: Actor,
  agencyId: string,
  decision: { approve: true } | { approve: false; reason: string },
  request: Request,
): Promise<string> {
  authorize(actor, "agency", "review");
  const agency = await agencyOrThrow(agencyId);
  const next = decision.approve ? "approved" : "rejected";
  // Approve a pending or rejected application; reject only a pending one.
  const from = decision.approve ? ne(agencies.approvalStatus, "approved") : eq(agencies.approvalStatus, "pending");
  const already = async () => conflict(`${agency.name} is already ${(await agencyOrThrow(agencyId)).approvalStatus}.`);
  if (agency.approvalStatus === next || (!decision.approve && agency.approvalStatus !== "pending")) {
    throw conflict(`${agency.name} is already ${agency.approvalStatus}.`);
  }
  const reason = decision.approve ? null : decision.reason;
  const owner = agency.userId ? await personById(agency.userId) : undefined;
  const approveOwner = Boolean(decision.approve && owner && owner.approvalStatus === "pending" && !owner.isBanned);
  const origin = appOrigin();
  const results = await runDecision(
    [
      db()
        .update(agencies)
        .set({ approvalStatus: next, rejectionReason: reason, updatedAt: new Date().toISOString() })
        .where(and(eq(agencies.id, agencyId), from)),
      precondition(previousStatementChanged(1)),
      emailQuery({
        to: agency.contactEmail,
        kind: decision.approve ? "agency_approved" : "agency_rejected",
        subject: decision.approve ? `${userText(agency.name)} is approved on ${appName()}` : `Your agency application on ${appName()}`,
        text: decision.approve
          ? `Good news: ${userText(agency.name)} is approved on ${appName()}.\n\nOpen your agency dashboard at ${origin}/agency-dashboard to share your creator signup link:\n${origin}/${agency.slug}/signup\n`
          : `We have reviewed the application for ${userText(agency.name)} and cannot approve it at this time.\n\nReason: ${userText(reason)}\n\nYou can see the status at ${origin}/agency-application-status.`,
      }),
      auditQuery({
        eventType: decision.approve ? "agency_approved" : "agency_rejected",
        severity: "medium",
        userId: actor.id,
        targetUserId: agency.userId,
        request,
        details: { agency_id: agencyId, slug: agency.slug, reason, applicant_approved: approveOwner },
      }),
      // Last, so its own row count says whether the applicant's account changed.
      ...(approveOwner && agency.userId ? [approvePendingAccountQuery(agency.userId)] : []),
    ],
    already,
  );
  for (const userId of await managerIdsOf(agencyId)) {
    await noticeQuietly(
      userId,
      decision.approve ? `${agency.name} is approved` : `${agency.name} was not approved`,
      decision.approve
        ? "Your agency is approved. Open the agency dashboard to share your signup links."
        : `Your agency application was not approved. Reason: ${reason}`,
      actor.id,
    );
  }
  const ownerChanged = approveOwner && (results[4] as D1Result | undefined)?.meta?.changes === 1;
  if (ownerChanged && agency.userId) {
    try {
      await notifyAccountDecision(agency.userId, "approved");
    } catch (error) {
      console.error("account notification failed", error);
    }
  }
  return decision.approve ? `${agency.name} is approved.` : `${agency.name} is rejected.`;
}

/** Activate or deactivate an agency (its dashboard and signup links follow). */
export async function setAgencyStatus(actor: Actor, agencyId: string, status: "active" | "inactive", request: Request): Promise<string> {
  authorize(actor, "agency", "setStatus");
  const agency = await agencyOrThrow(agencyId);
  const already = () => conflict(`${agency.name} is already ${status}.`);
  if (agency.status === status) throw already();
  await runDecision(
    [
      db()
        .update(agencies)
        .set({ status, updatedAt: new Date().toISOString() })
        .where(and(eq(agencies.id, agencyId), ne(agencies.status, status))),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: status === "active" ? "agency_activated" : "agency_deactivated",
        severity: "medium",
        userId: actor.id,
        targetUserId: agency.userId,
        request,
        details: { agency_id: agencyId, slug: agency.slug },
      }),
    ],
    already,
  );
  for (const userId of await managerIdsOf(agencyId)) {
    await noticeQuietly(
      userId,
      status === "active" ? `${agency.name} is active again` : `${agency.name} was deactivated`,
      status === "active"
        ? "Your agency's dashboard and signup links work again."
        : "An admin deactivated your agency: its dashboard and signup links are paused.",
      actor.id,
    );
  }
  return status === "active" ? `${agency.name} is active.` : `${agency.name} is inactive.`;
}
