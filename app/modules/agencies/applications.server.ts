import { desc, eq, inArray, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { agencies, agencyUsers } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { conflict, type DomainError } from "~/lib/errors";
import { authorize, isApproved, type Actor } from "~/lib/permissions";
import { createPendingAccount } from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { agencyStateOf, type AgencyState } from "./directory.server";
import { AGENCY_MESSAGES, slugProblem, type AgencyApplicationInput, type ApplicantAccountInput } from "./schema";

// Applications: the live slug check, applying when signed in, applying and signing up in one
// form when signed out, and what an applicant sees of their own applications. One pending
// application per applicant holds under concurrency: a partial unique index
// (agencies_one_pending_per_user) refuses the second one. See docs/decisions/0023-agency-applications.md.

const SLUG_TAKEN = "This slug is already taken. Please choose another.";
const ALREADY_APPLIED = "You already have an agency application. Check its status instead.";

const slugTaken = (message = SLUG_TAKEN) => conflict(message, { title: AGENCY_MESSAGES.create, fieldErrors: { slug: message } });
const alreadyApplied = () => conflict(ALREADY_APPLIED, { title: AGENCY_MESSAGES.create });

/** Is this slug free to take? (URL-safe, not reserved, not used by any agency in any state.) */
export async function checkSlug(slug: string): Promise<{ available: boolean; message: string }> {
  const clean = slug.trim().toLowerCase();
  const problem = slugProblem(clean);
  if (problem) return { available: false, message: problem };
  const taken = await db().select({ id: agencies.id }).from(agencies).where(eq(agencies.slug, clean)).get();
  return taken ? { available: false, message: SLUG_TAKEN } : { available: true, message: `${clean} is available.` };
}

/** The application's rows: the pending agency, its applicant as first manager, the audit row. */
function applicationQueries(
  agencyId: string,
  userId: string,
  input: AgencyApplicationInput,
  request: Request,
): [BatchItem<"sqlite">, BatchItem<"sqlite">, BatchItem<"sqlite">] {
  return [
    db()
      .insert(agencies)
      .values({
        id: agencyId,
        name: input.agencyName,
        slug: input.slug,
        contactEmail: input.contactEmail,
        description: input.description || null,
        status: "active",
        approvalStatus: "pending",
        createdBy: userId,
        userId,
      }),
    db().insert(agencyUsers).values({ id: crypto.randomUUID(), agencyId, userId, role: "manager", createdBy: userId }),
    auditQuery({
      eventType: "agency_application",
      severity: "low",
      userId,
      request,
      details: { agency_id: agencyId, slug: input.slug, name: input.agencyName },
    }),
  ];
}

/** The unique indexes an application can run into, when a concurrent request won the race. */
function raceLoser(error: unknown): DomainError | null {
  const text = `${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  if (/UNIQUE.*agencies\.slug/.test(text)) return slugTaken();
  if (/UNIQUE.*agencies\.user_id/.test(text)) return alreadyApplied();
  return null;
}

/** A signed-in user applies. Refused while they already have a pending or approved agency. */
export async function applyForAgency(actor: Actor, input: AgencyApplicationInput, request: Request): Promise<{ agencyId: string }> {
  authorize(actor, "agency", "apply");
  // The user's own agencies decide; an admin's bypass does not make them an applicant.
  const { state } = await agencyStateOf({ id: actor.id, isAdmin: false });
  if (state === "pending" || state === "approved") throw alreadyApplied();
  const slug = await checkSlug(input.slug);
  if (!slug.available) throw slugTaken(slug.message);
  const agencyId = crypto.randomUUID();
  const [agency, manager, auditRow] = applicationQueries(agencyId, actor.id, input, request);
  try {
    await db().batch([agency, manager, auditRow]);
  } catch (error) {
    throw raceLoser(error) ?? error;
  }
  return { agencyId };
}

/**
 * A signed-out visitor applies and signs up in the same form: the account (pending, e-mail to
 * verify) and the application are one batch. When the e-mail already has an account, the answer
 * is the same and only its owner hears of it (by e-mail), as with every sign-up. Returns the
 * agency's id, or null when nothing was created.
 */
export async function applyWithNewAccount(
  account: ApplicantAccountInput,
  input: AgencyApplicationInput,
  request: Request,
): Promise<{ agencyId: string | null }> {
  const slug = await checkSlug(input.slug);
  if (!slug.available) throw slugTaken(slug.message);
  const agencyId = crypto.randomUUID();
  let userId: string | null;
  try {
    ({ userId } = await createPendingAccount(request, {
      email: account.email,
      password: account.password,
      fullName: account.fullName,
      metadata: { agency_slug: input.slug, agency_name: input.agencyName, agency_applicant: true },
      extraQueries: (newUserId) => applicationQueries(agencyId, newUserId, input, request),
      auditDetails: { agency_application: agencyId },
    }));
  } catch (error) {
    throw raceLoser(error) ?? error;
  }
  return { agencyId: userId ? agencyId : null };
}

export type OwnApplication = {
  id: string;
  name: string;
  slug: string;
  approvalStatus: "pending" | "approved" | "rejected";
  status: "active" | "inactive";
  rejectionReason: string | null;
  createdAt: string;
};

/** The user's own applications and agencies (owned or managed), newest first. */
async function applicationsOf(userId: string): Promise<OwnApplication[]> {
  const managed = db().select({ id: agencyUsers.agencyId }).from(agencyUsers).where(eq(agencyUsers.userId, userId));
  return db()
    .select(columnsOf(agencies, "id", "name", "slug", "approvalStatus", "status", "rejectionReason", "createdAt"))
    .from(agencies)
    .where(or(eq(agencies.userId, userId), inArray(agencies.id, managed)))
    .orderBy(desc(agencies.createdAt))
    .all();
}

/**
 * What the application form needs to know of a signed-in user: their own agency state (an
 * admin's bypass does not count here) and, when rejected, the last rejected application.
 */
export async function applicantView(actor: Actor): Promise<{ state: AgencyState; previous: { name: string; reason: string | null } | null }> {
  authorize(actor, "agency", "readOwnApplication");
  const { state } = await agencyStateOf({ id: actor.id, isAdmin: false });
  if (state !== "rejected") return { state, previous: null };
  const last = (await applicationsOf(actor.id)).find((a) => a.approvalStatus === "rejected");
  return { state, previous: last ? { name: last.name, reason: last.rejectionReason } : null };
}

/**
 * The status page: the user's own agency state, whether one of theirs is active, whether their
 * own account is approved (a manager whose account is pending or rejected waits here, see
 * docs/decisions/0066), and their applications.
 */
export async function ownApplications(
  actor: Actor,
): Promise<{ state: AgencyState; hasActiveAgency: boolean; accountApproved: boolean; agencies: OwnApplication[] }> {
  authorize(actor, "agency", "readOwnApplication");
  const { state, activeAgencyIds } = await agencyStateOf({ id: actor.id, isAdmin: false });
  const hasActiveAgency = activeAgencyIds.length > 0;
  const accountApproved = isApproved(actor);
  if (state === "none" || (hasActiveAgency && accountApproved)) return { state, hasActiveAgency, accountApproved, agencies: [] };
  return { state, hasActiveAgency, accountApproved, agencies: await applicationsOf(actor.id) };
}
