import { and, asc, desc, eq, exists, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { agencies, agencySignupTokens, agencyUsers } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { agencyMembersQuery, agencyMemberTotalQuery, emailOfUser, fullNameOfUser, signupCountOfToken } from "~/modules/accounts/accounts.server";
import { channelStatsOf } from "~/modules/channels/channels.server";
import { earningsOf } from "~/modules/payments/payments.server";
import { avatarUrl, checkUpload, putPublicImage, type ImageType } from "~/modules/media/media.server";
import { auditQuery } from "~/platform/audit.server";
import { randomToken } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { agencyProfileColumns, authorizeManage } from "./access.server";
import { isActiveAgency } from "./directory.server";
import { inviteManager, pendingInvitationsQuery } from "./invitations.server";
import { LOGO_MAX_BYTES, type DashboardAction } from "./schema";

// The agency dashboard: what a manager sees (signup links, tokens, managers, roster) and does
// (profile, logo, tokens, managers). Every action names its agency by id and is authorized
// against PERMISSIONS.agency.manage first; another agency's id is refused and audit-logged.

export const LOGO_TYPES: readonly ImageType[] = ["image/png", "image/jpeg", "image/webp"];
export const ROSTER_PAGE_SIZE = 25;

const choiceColumns = {
  id: agencies.id,
  name: agencies.name,
  slug: agencies.slug,
  status: agencies.status,
  approvalStatus: agencies.approvalStatus,
};

/** The agencies the dashboard may show: admins every agency, managers their approved, active ones. */
async function manageableAgencies(actor: Actor) {
  const byName = sql`${agencies.name} collate nocase`;
  if (actor.isAdmin) return db().select(choiceColumns).from(agencies).orderBy(byName).all();
  const managed = db().select({ id: agencyUsers.agencyId }).from(agencyUsers).where(eq(agencyUsers.userId, actor.id));
  return db()
    .select(choiceColumns)
    .from(agencies)
    .where(and(isActiveAgency(), or(eq(agencies.userId, actor.id), inArray(agencies.id, managed))))
    .orderBy(byName)
    .all();
}

/** One agency's dashboard, in one batch: the agency, its tokens, managers, a roster page and its total. */
function dashboardBatch(agencyId: string, rosterPage: number) {
  return db().batch([
    db()
      .select({
        ...agencyProfileColumns(),
        // Whether its signup links work: the one definition of an active agency.
        isActive: sql<boolean>`${isActiveAgency()}`.mapWith(Boolean),
        updatedAt: agencies.updatedAt,
      })
      .from(agencies)
      .where(eq(agencies.id, agencyId))
      .limit(1),
    db()
      .select({
        id: agencySignupTokens.id,
        token: agencySignupTokens.token,
        createdAt: agencySignupTokens.createdAt,
        revokedAt: agencySignupTokens.revokedAt,
        createdByEmail: emailOfUser(agencySignupTokens.createdBy),
        uses: signupCountOfToken(agencySignupTokens.id),
      })
      .from(agencySignupTokens)
      .where(eq(agencySignupTokens.agencyId, agencyId))
      .orderBy(sql`${agencySignupTokens.revokedAt} is not null`, desc(agencySignupTokens.createdAt))
      .limit(100),
    db()
      .select({
        id: agencyUsers.id,
        userId: agencyUsers.userId,
        email: emailOfUser(agencyUsers.userId),
        fullName: fullNameOfUser(agencyUsers.userId),
        role: agencyUsers.role,
        createdAt: agencyUsers.createdAt,
        isOwner: sql<boolean>`${agencies.userId} is ${agencyUsers.userId}`.mapWith(Boolean),
      })
      .from(agencyUsers)
      .innerJoin(agencies, eq(agencies.id, agencyUsers.agencyId))
      .where(eq(agencyUsers.agencyId, agencyId))
      .orderBy(asc(agencyUsers.createdAt)),
    agencyMembersQuery(agencyId, { limit: ROSTER_PAGE_SIZE, offset: (rosterPage - 1) * ROSTER_PAGE_SIZE }, (userId) => ({
      ...channelStatsOf(userId),
      // Each member's earnings this month and in total (payments module; the roster's own people only).
      ...earningsOf(userId),
    })),
    agencyMemberTotalQuery(agencyId),
    pendingInvitationsQuery(agencyId),
  ]);
}

/**
 * The dashboard for an agency the actor may manage: the one asked for, else their first. An
 * agency that is not theirs (or does not exist) is not found, the same answer either way.
 * `failed` when the list of agencies cannot be read (the spec's 'Failed to fetch agencies').
 */
export async function agencyDashboard(actor: Actor, requested: { agencyId: string | null; rosterPage: number }) {
  let choices: Awaited<ReturnType<typeof manageableAgencies>>;
  try {
    choices = await manageableAgencies(actor);
  } catch (error) {
    console.error("listing agencies failed", error);
    return { kind: "failed" as const };
  }
  if (requested.agencyId && !choices.some((c) => c.id === requested.agencyId)) throw notFound("Not Found");
  const agencyId = requested.agencyId ?? choices[0]?.id;
  if (!agencyId) return { kind: "empty" as const };
  authorize(actor, "agency", "manage", { agencyId, managedAgencyIds: choices.map((c) => c.id) });
  const [[agency], tokens, managers, roster, [total], invitations] = await dashboardBatch(agencyId, requested.rosterPage);
  if (!agency) throw notFound("Not Found");
  const rosterTotal = total?.n ?? 0;
  return {
    kind: "dashboard" as const,
    choices,
    agency,
    tokens,
    managers,
    invitations,
    roster,
    rosterTotal,
    rosterPage: requested.rosterPage,
    rosterPageCount: Math.max(1, Math.ceil(rosterTotal / ROSTER_PAGE_SIZE)),
  };
}

/** Does one dashboard action on an agency the actor may manage; returns the success message. */
export async function agencyDashboardAction(actor: Actor, input: DashboardAction, request: Request): Promise<string> {
  await authorizeManage(actor, input.agencyId, input.intent, request);
  const { agencyId } = input;
  switch (input.intent) {
    case "update_profile":
      return updateProfile(actor, agencyId, input, request);
    case "upload_logo":
      return uploadLogo(actor, agencyId, input.logo, request);
    case "create_token":
      return createSignupToken(actor, agencyId, request);
    case "revoke_token":
      return revokeSignupToken(actor, agencyId, input.id, request);
    case "add_manager":
      return inviteManager(actor, agencyId, input.email, request);
    case "remove_manager":
      return removeManager(actor, agencyId, input.id, request);
  }
}

const changedOnce = () => precondition(previousStatementChanged(1));

/** Runs a batch whose precondition guards a change; `refused` is thrown when it did not hold. */
async function guarded(batch: Parameters<ReturnType<typeof db>["batch"]>[0], refused: () => Error | Promise<Error>) {
  try {
    return await db().batch(batch);
  } catch (error) {
    if (isPreconditionFailure(error)) throw await refused();
    throw error;
  }
}

async function updateProfile(
  actor: Actor,
  agencyId: string,
  input: { name: string; contactEmail: string; description: string },
  request: Request,
): Promise<string> {
  await guarded(
    [
      db()
        .update(agencies)
        .set({
          name: input.name,
          contactEmail: input.contactEmail,
          description: input.description || null,
          updatedAt: new Date().toISOString(),
        })
        .where(eq(agencies.id, agencyId)),
      changedOnce(),
      auditQuery({ eventType: "agency_updated", userId: actor.id, request, details: { agency_id: agencyId, name: input.name } }),
    ],
    () => notFound("Agency not found."),
  );
  return "Agency profile saved.";
}

async function uploadLogo(actor: Actor, agencyId: string, file: File, request: Request): Promise<string> {
  const check = await checkUpload(file, LOGO_TYPES, LOGO_MAX_BYTES, "The logo");
  if (!check.ok) throw invalid(check.error, { fieldErrors: { logo: check.error } });
  const previous = await db().select({ logoUrl: agencies.logoUrl }).from(agencies).where(eq(agencies.id, agencyId)).get();
  if (!previous) throw notFound("Agency not found.");
  const key = await putPublicImage(file, check.type, `agency-logos/${agencyId}`);
  await db().batch([
    db()
      .update(agencies)
      .set({ logoUrl: avatarUrl(key), updatedAt: new Date().toISOString() })
      .where(eq(agencies.id, agencyId)),
    auditQuery({
      eventType: "agency_logo_updated",
      userId: actor.id,
      request,
      details: { agency_id: agencyId, key, bytes: check.size },
    }),
  ]);
  // The old logo is ours to delete when it lives under this agency's folder.
  const oldKey = previous.logoUrl ? keyOfLogo(previous.logoUrl, agencyId) : null;
  if (oldKey && oldKey !== key) await env.AVATARS.delete(oldKey).catch(() => undefined);
  return "Logo updated.";
}

function keyOfLogo(url: string, agencyId: string): string | null {
  const marker = `agency-logos/${agencyId}/`;
  const at = url.indexOf(marker);
  return at >= 0 ? decodeURIComponent(url.slice(at)) : null;
}

/** A new signup token from the CSPRNG (160 bits), for links such as /{slug}/signup?token=… */
async function createSignupToken(actor: Actor, agencyId: string, request: Request): Promise<string> {
  await db().batch([
    db().insert(agencySignupTokens).values({ id: crypto.randomUUID(), agencyId, token: randomToken(), createdBy: actor.id }),
    auditQuery({ eventType: "agency_token_created", userId: actor.id, request, details: { agency_id: agencyId } }),
  ]);
  return "Signup token created.";
}

async function revokeSignupToken(actor: Actor, agencyId: string, tokenId: string, request: Request): Promise<string> {
  // By agency id too: a manager can only ever reach their own agency's tokens.
  await guarded(
    [
      db()
        .update(agencySignupTokens)
        .set({ revokedAt: new Date().toISOString() })
        .where(and(eq(agencySignupTokens.id, tokenId), eq(agencySignupTokens.agencyId, agencyId), isNull(agencySignupTokens.revokedAt))),
      changedOnce(),
      auditQuery({
        eventType: "agency_token_revoked",
        userId: actor.id,
        request,
        details: { agency_id: agencyId, token_id: tokenId },
      }),
    ],
    () => notFound("Token not found or already revoked."),
  );
  return "Token revoked. Sign-ups with it are no longer attributed to your agency.";
}

/**
 * Removes a manager, never the last one: the delete itself requires another manager to remain,
 * so two managers removing each other at once cannot leave the agency with none. Removing the
 * owner also clears agencies.user_id, so ownership cannot keep a removed person in.
 */
async function removeManager(actor: Actor, agencyId: string, managerUserId: string, request: Request): Promise<string> {
  const other = alias(agencyUsers, "other_manager");
  const anotherRemains = exists(
    db()
      .select({ one: sql`1` })
      .from(other)
      .where(and(eq(other.agencyId, agencyId), ne(other.userId, managerUserId))),
  );
  await guarded(
    [
      db()
        .delete(agencyUsers)
        .where(and(eq(agencyUsers.agencyId, agencyId), eq(agencyUsers.userId, managerUserId), anotherRemains)),
      changedOnce(),
      db()
        .update(agencies)
        .set({ userId: null, updatedAt: new Date().toISOString() })
        .where(and(eq(agencies.id, agencyId), eq(agencies.userId, managerUserId))),
      auditQuery({
        eventType: "agency_manager_removed",
        severity: "medium",
        userId: actor.id,
        targetUserId: managerUserId,
        request,
        details: { agency_id: agencyId },
      }),
    ],
    async () => {
      const member = await db()
        .select({ id: agencyUsers.id })
        .from(agencyUsers)
        .where(and(eq(agencyUsers.agencyId, agencyId), eq(agencyUsers.userId, managerUserId)))
        .get();
      return member ? conflict("An agency always keeps at least one manager.") : notFound("Manager not found.");
    },
  );
  return managerUserId === actor.id ? "You are no longer a manager of this agency." : "Manager removed.";
}
