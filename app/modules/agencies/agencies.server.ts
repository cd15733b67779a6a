export * from "./directory.server";
import {
  AGENCY_MESSAGES,
  slugProblem,
  type AgencyApplicationInput,
  type ApplicantAccountInput,
} from "./schema";
import type { AgencyFilter } from "~/modules/admin/schema";
import { isPreconditionFailure, noticeQuietly, precondition, type ActionResult } from "~/modules/admin/admin.server";
import { auditStatement } from "~/platform/audit.server";
import { createPendingAccount, type Failure } from "~/modules/accounts/auth.server";
import { randomToken } from "~/platform/crypto.server";
import { emailStatement } from "~/platform/email.server";
import { appName, env } from "~/platform/env.server";
import { agencyStateOf } from "~/modules/accounts/guards.server";
import { avatarUrl, checkUpload, putPublicImage, type ImageType } from "~/modules/media/media.server";
import { notifyAccountDecision } from "~/modules/notifications/notifications.server";
import type { SessionUser } from "~/modules/accounts/session.server";

// Agencies: applications, the admin's review, and what a manager does on the dashboard (profile,
// logo, signup tokens, managers, roster). Every dashboard action names its agency by id and is
// checked against the acting user's own agencies first (admins may act on any).

const ok = (message: string): ActionResult => ({ ok: true, message });
const refuse = (status: number, message: string): ActionResult => ({ ok: false, status, message });

export type AgencyRow = {
  id: string;
  name: string;
  slug: string;
  contact_email: string;
  description: string | null;
  logo_url: string | null;
  status: "active" | "inactive";
  approval_status: "pending" | "approved" | "rejected";
  rejection_reason: string | null;
  created_at: string;
  updated_at: string;
  user_id: string | null;
};

const AGENCY_COLUMNS =
  "a.id, a.name, a.slug, a.contact_email, a.description, a.logo_url, a.status, a.approval_status, a.rejection_reason, a.created_at, a.updated_at, a.user_id";

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TYPES: readonly ImageType[] = ["image/png", "image/jpeg", "image/webp"];
export const ROSTER_PAGE_SIZE = 25;
export const ADMIN_AGENCIES_PAGE_SIZE = 25;

// ---------------------------------------------------------------------------------------------
// Public lookups
// ---------------------------------------------------------------------------------------------

/** An agency whose links work: approved and active. Anything else is not found. */
export async function findPublicAgency(slug: string): Promise<Pick<AgencyRow, "id" | "name" | "slug" | "logo_url" | "description"> | null> {
  const clean = slug.toLowerCase();
  if (slugProblem(clean)) return null;
  return env.DB.prepare(
    "SELECT id, name, slug, logo_url, description FROM agencies WHERE slug = ? AND approval_status = 'approved' AND status = 'active'",
  )
    .bind(clean)
    .first();
}

/** Is this slug free to take? (URL-safe, not reserved, not used by any agency in any state.) */
export async function checkSlug(slug: string): Promise<{ available: boolean; message: string }> {
  const clean = slug.trim().toLowerCase();
  const problem = slugProblem(clean);
  if (problem) return { available: false, message: problem };
  const taken = await env.DB.prepare("SELECT 1 AS taken FROM agencies WHERE slug = ?").bind(clean).first();
  return taken
    ? { available: false, message: "This slug is already taken. Please choose another." }
    : { available: true, message: `${clean} is available.` };
}

// ---------------------------------------------------------------------------------------------
// Applications
// ---------------------------------------------------------------------------------------------

export type ApplyResult =
  | { ok: true; agencyId: string | null }
  | { ok: false; status: number; field?: "slug"; toast: { title: string; description: string }; retryAfterSeconds?: number };

const SLUG_TAKEN = "This slug is already taken. Please choose another.";

function applicationStatements(agencyId: string, userId: string, input: AgencyApplicationInput, request: Request): D1PreparedStatement[] {
  return [
    env.DB.prepare(
      `INSERT INTO agencies (id, name, slug, contact_email, description, status, approval_status, created_by, user_id)
       VALUES (?, ?, ?, ?, ?, 'active', 'pending', ?, ?)`,
    ).bind(agencyId, input.agencyName, input.slug, input.contactEmail, input.description || null, userId, userId),
    // The applicant becomes the agency's first manager.
    env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, role, created_by) VALUES (?, ?, ?, 'manager', ?)").bind(
      crypto.randomUUID(),
      agencyId,
      userId,
      userId,
    ),
    auditStatement({
      eventType: "agency_application",
      severity: "low",
      userId,
      request,
      details: { agency_id: agencyId, slug: input.slug, name: input.agencyName },
    }),
  ];
}

function isSlugConflict(error: unknown): boolean {
  return /UNIQUE.*agencies\.slug/.test(String(error));
}

/** A signed-in user applies. Refused while they already have a pending or approved agency. */
export async function applyForAgency(user: Pick<SessionUser, "id" | "isAdmin">, input: AgencyApplicationInput, request: Request): Promise<ApplyResult> {
  const { state } = await agencyStateOf({ id: user.id, isAdmin: false });
  if (state === "pending" || state === "approved") {
    return {
      ok: false,
      status: 409,
      toast: { title: AGENCY_MESSAGES.create, description: "You already have an agency application. Check its status instead." },
    };
  }
  const slug = await checkSlug(input.slug);
  if (!slug.available) return { ok: false, status: 409, field: "slug", toast: { title: AGENCY_MESSAGES.create, description: slug.message } };
  const agencyId = crypto.randomUUID();
  try {
    await env.DB.batch(applicationStatements(agencyId, user.id, input, request));
  } catch (error) {
    if (isSlugConflict(error)) return { ok: false, status: 409, field: "slug", toast: { title: AGENCY_MESSAGES.create, description: SLUG_TAKEN } };
    console.error("agency application failed", error);
    return { ok: false, status: 500, toast: { title: AGENCY_MESSAGES.create, description: "Please try again later." } };
  }
  return { ok: true, agencyId };
}

/**
 * A signed-out visitor applies and signs up in the same form: the account (pending, e-mail to
 * verify) and the application are one batch. When the e-mail already has an account, the answer
 * is the same and only its owner hears of it (by e-mail), as with every sign-up.
 */
export async function applyWithNewAccount(
  account: ApplicantAccountInput,
  input: AgencyApplicationInput,
  request: Request,
): Promise<ApplyResult> {
  const slug = await checkSlug(input.slug);
  if (!slug.available) return { ok: false, status: 409, field: "slug", toast: { title: AGENCY_MESSAGES.create, description: slug.message } };
  const agencyId = crypto.randomUUID();
  let result: Awaited<ReturnType<typeof createPendingAccount>>;
  try {
    result = await createPendingAccount(request, {
      email: account.email,
      password: account.password,
      fullName: account.fullName,
      metadata: { agency_slug: input.slug, agency_name: input.agencyName, agency_applicant: true },
      extraStatements: (userId) => applicationStatements(agencyId, userId, input, request),
      auditDetails: { agency_application: agencyId },
    });
  } catch (error) {
    if (isSlugConflict(error)) return { ok: false, status: 409, field: "slug", toast: { title: AGENCY_MESSAGES.create, description: SLUG_TAKEN } };
    console.error("agency application with sign-up failed", error);
    return { ok: false, status: 500, toast: { title: AGENCY_MESSAGES.create, description: "Please try again later." } };
  }
  if (!result.ok) return failureToApply(result);
  return { ok: true, agencyId: result.userId ? agencyId : null };
}

function failureToApply(f: Failure): ApplyResult {
  return { ok: false, status: f.status, toast: f.toast, retryAfterSeconds: f.retryAfterSeconds };
}

/** The signed-in user's own applications and agencies, newest first. */
export async function applicationsOf(userId: string): Promise<AgencyRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT ${AGENCY_COLUMNS} FROM agencies a
     WHERE a.user_id = ?1 OR a.id IN (SELECT agency_id FROM agency_users WHERE user_id = ?1)
     ORDER BY a.created_at DESC`,
  )
    .bind(userId)
    .all<AgencyRow>();
  return results;
}

// ---------------------------------------------------------------------------------------------
// Admin review
// ---------------------------------------------------------------------------------------------


export async function listAgenciesForAdmin(filter: AgencyFilter, page: number) {
  const where =
    filter === "all" ? "" : filter === "inactive" ? "WHERE a.status = 'inactive'" : "WHERE a.approval_status = ?";
  const binds = filter === "all" || filter === "inactive" ? [] : [filter];
  const [rows, count] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(
      `SELECT ${AGENCY_COLUMNS}, owner.email AS owner_email, owner_p.full_name AS owner_name,
              (SELECT count(*) FROM agency_users au WHERE au.agency_id = a.id) AS manager_count,
              (SELECT count(*) FROM profiles p WHERE p.agency_id = a.id) AS creator_count
       FROM agencies a LEFT JOIN users owner ON owner.id = a.user_id LEFT JOIN profiles owner_p ON owner_p.user_id = a.user_id
       ${where}
       ORDER BY CASE a.approval_status WHEN 'pending' THEN 0 ELSE 1 END, a.created_at DESC
       LIMIT ? OFFSET ?`,
    ).bind(...binds, ADMIN_AGENCIES_PAGE_SIZE, (page - 1) * ADMIN_AGENCIES_PAGE_SIZE),
    env.DB.prepare(`SELECT count(*) AS n FROM agencies a ${where}`).bind(...binds),
  ]);
  const total = Number((count.results[0] as { n: number }).n);
  return {
    agencies: rows.results as unknown as (AgencyRow & { owner_email: string | null; owner_name: string | null; manager_count: number; creator_count: number })[],
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / ADMIN_AGENCIES_PAGE_SIZE)),
  };
}

async function loadAgency(agencyId: string): Promise<AgencyRow | null> {
  return env.DB.prepare(`SELECT ${AGENCY_COLUMNS} FROM agencies a WHERE a.id = ?`).bind(agencyId).first<AgencyRow>();
}

async function managerIds(agencyId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT user_id FROM agency_users WHERE agency_id = ?1 UNION SELECT user_id FROM agencies WHERE id = ?1 AND user_id IS NOT NULL",
  )
    .bind(agencyId)
    .all<{ user_id: string }>();
  return results.map((r) => r.user_id);
}

const AGENCY_NOT_FOUND = refuse(404, "Agency not found.");

/**
 * Approve or reject an application. Approving also approves the applicant's own account when it
 * is still pending: the admin has just vetted that person (docs/decisions/0024-agency-state.md).
 */
export async function reviewAgency(
  admin: Pick<SessionUser, "id">,
  agencyId: string,
  decision: { approve: true } | { approve: false; reason: string },
  request: Request,
): Promise<ActionResult> {
  const agency = await loadAgency(agencyId);
  if (!agency) return AGENCY_NOT_FOUND;
  const next = decision.approve ? "approved" : "rejected";
  if (agency.approval_status === next) return refuse(409, `${agency.name} is already ${next}.`);
  const reason = decision.approve ? null : decision.reason;
  const now = new Date().toISOString();
  const owner = agency.user_id
    ? await env.DB.prepare("SELECT approval_status, is_banned FROM profiles WHERE user_id = ?")
        .bind(agency.user_id)
        .first<{ approval_status: string; is_banned: number }>()
    : null;
  const approveOwner = decision.approve && agency.user_id && owner?.approval_status === "pending" && !owner.is_banned;
  const origin = new URL(request.url).origin;
  try {
    await env.DB.batch([
      env.DB.prepare("UPDATE agencies SET approval_status = ?, rejection_reason = ?, updated_at = ? WHERE id = ?").bind(next, reason, now, agencyId),
      ...(approveOwner
        ? [
            env.DB.prepare("UPDATE profiles SET approval_status = 'approved', rejection_reason = NULL, updated_at = ? WHERE user_id = ?").bind(
              now,
              agency.user_id,
            ),
          ]
        : []),
      emailStatement({
        to: agency.contact_email,
        kind: decision.approve ? "agency_approved" : "agency_rejected",
        subject: decision.approve ? `${agency.name} is approved on ${appName()}` : `Your agency application on ${appName()}`,
        text: decision.approve
          ? `Good news: ${agency.name} is approved on ${appName()}.\n\nOpen your agency dashboard at ${origin}/agency-dashboard to share your creator signup link:\n${origin}/${agency.slug}/signup\n`
          : `We have reviewed the application for ${agency.name} and cannot approve it at this time.\n\nReason: ${reason}\n\nYou can see the status at ${origin}/agency-application-status.`,
      }),
      auditStatement({
        eventType: decision.approve ? "agency_approved" : "agency_rejected",
        severity: "medium",
        userId: admin.id,
        targetUserId: agency.user_id,
        request,
        details: { agency_id: agencyId, slug: agency.slug, reason, applicant_approved: Boolean(approveOwner) },
      }),
    ]);
  } catch (error) {
    console.error("agency review failed", error);
    return refuse(500, AGENCY_MESSAGES.update);
  }
  for (const userId of await managerIds(agencyId)) {
    await noticeQuietly(
      userId,
      decision.approve ? `${agency.name} is approved` : `${agency.name} was not approved`,
      decision.approve
        ? "Your agency is approved. Open the agency dashboard to share your signup links."
        : `Your agency application was not approved. Reason: ${reason}`,
      admin.id,
      "agency",
    );
  }
  if (approveOwner && agency.user_id) {
    try {
      await notifyAccountDecision(agency.user_id, "approved");
    } catch (error) {
      console.error("account notification failed", error);
    }
  }
  return ok(decision.approve ? `${agency.name} is approved.` : `${agency.name} is rejected.`);
}

export async function setAgencyStatus(
  admin: Pick<SessionUser, "id">,
  agencyId: string,
  status: "active" | "inactive",
  request: Request,
): Promise<ActionResult> {
  const agency = await loadAgency(agencyId);
  if (!agency) return AGENCY_NOT_FOUND;
  if (agency.status === status) return refuse(409, `${agency.name} is already ${status}.`);
  try {
    await env.DB.batch([
      env.DB.prepare("UPDATE agencies SET status = ?, updated_at = ? WHERE id = ?").bind(status, new Date().toISOString(), agencyId),
      auditStatement({
        eventType: status === "active" ? "agency_activated" : "agency_deactivated",
        severity: "medium",
        userId: admin.id,
        targetUserId: agency.user_id,
        request,
        details: { agency_id: agencyId, slug: agency.slug },
      }),
    ]);
  } catch (error) {
    console.error("agency status change failed", error);
    return refuse(500, AGENCY_MESSAGES.update);
  }
  for (const userId of await managerIds(agencyId)) {
    await noticeQuietly(
      userId,
      status === "active" ? `${agency.name} is active again` : `${agency.name} was deactivated`,
      status === "active"
        ? "Your agency's dashboard and signup links work again."
        : "An admin deactivated your agency: its dashboard and signup links are paused.",
      admin.id,
      "agency",
    );
  }
  return ok(status === "active" ? `${agency.name} is active.` : `${agency.name} is inactive.`);
}

// ---------------------------------------------------------------------------------------------
// Dashboard: which agencies a user may manage
// ---------------------------------------------------------------------------------------------

export type AgencyChoice = Pick<AgencyRow, "id" | "name" | "slug" | "status" | "approval_status">;

/** The agencies the dashboard may show this user: admins every agency, managers their approved, active ones. */
export async function manageableAgencies(user: Pick<SessionUser, "id" | "isAdmin">): Promise<AgencyChoice[]> {
  const { results } = user.isAdmin
    ? await env.DB.prepare("SELECT id, name, slug, status, approval_status FROM agencies ORDER BY name COLLATE NOCASE").all<AgencyChoice>()
    : await env.DB.prepare(
        `SELECT id, name, slug, status, approval_status FROM agencies
         WHERE approval_status = 'approved' AND status = 'active'
           AND (user_id = ?1 OR id IN (SELECT agency_id FROM agency_users WHERE user_id = ?1))
         ORDER BY name COLLATE NOCASE`,
      )
        .bind(user.id)
        .all<AgencyChoice>();
  return results;
}

/** May this user act on this agency? Checked on every dashboard action, by agency id. */
export async function canManageAgency(user: Pick<SessionUser, "id" | "isAdmin">, agencyId: string): Promise<boolean> {
  if (!agencyId) return false;
  if (user.isAdmin) {
    return Boolean(await env.DB.prepare("SELECT 1 AS ok FROM agencies WHERE id = ?").bind(agencyId).first());
  }
  const row = await env.DB.prepare(
    `SELECT 1 AS ok FROM agencies a
     WHERE a.id = ?1 AND a.approval_status = 'approved' AND a.status = 'active'
       AND (a.user_id = ?2 OR EXISTS (SELECT 1 FROM agency_users au WHERE au.agency_id = a.id AND au.user_id = ?2))`,
  )
    .bind(agencyId, user.id)
    .first();
  return Boolean(row);
}

export type TokenRow = { id: string; token: string; created_at: string; revoked_at: string | null; created_by_email: string | null; uses: number };
export type ManagerRow = { id: string; user_id: string; email: string; full_name: string | null; role: string; created_at: string; is_owner: number };
export type RosterRow = {
  user_id: string;
  full_name: string | null;
  email: string;
  approval_status: "pending" | "approved" | "rejected";
  is_banned: number;
  is_music_partner: number;
  channels: number;
  views: number;
  joined_at: string;
  via_token: number;
};

export async function agencyDashboard(agencyId: string, rosterPage: number) {
  const [agency, tokens, managers, roster, rosterCount] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(`SELECT ${AGENCY_COLUMNS} FROM agencies a WHERE a.id = ?`).bind(agencyId),
    env.DB.prepare(
      `SELECT t.id, t.token, t.created_at, t.revoked_at, u.email AS created_by_email,
              (SELECT count(*) FROM profiles p WHERE p.agency_signup_token_id = t.id) AS uses
       FROM agency_signup_tokens t LEFT JOIN users u ON u.id = t.created_by
       WHERE t.agency_id = ? ORDER BY t.revoked_at IS NOT NULL, t.created_at DESC LIMIT 100`,
    ).bind(agencyId),
    env.DB.prepare(
      `SELECT au.id, au.user_id, u.email, p.full_name, au.role, au.created_at, (a.user_id = au.user_id) AS is_owner
       FROM agency_users au JOIN users u ON u.id = au.user_id JOIN profiles p ON p.user_id = au.user_id JOIN agencies a ON a.id = au.agency_id
       WHERE au.agency_id = ? ORDER BY au.created_at`,
    ).bind(agencyId),
    env.DB.prepare(
      `SELECT p.user_id, p.full_name, u.email, p.approval_status, p.is_banned, p.is_music_partner, p.created_at AS joined_at,
              (p.agency_signup_token_id IS NOT NULL) AS via_token,
              (SELECT count(*) FROM youtube_channels c WHERE c.user_id = p.user_id)
                + (SELECT count(*) FROM manual_channel_submissions m WHERE m.user_id = p.user_id AND m.status = 'verified') AS channels,
              coalesce((SELECT sum(c.view_count) FROM youtube_channels c WHERE c.user_id = p.user_id), 0) AS views
       FROM profiles p JOIN users u ON u.id = p.user_id
       WHERE p.agency_id = ? ORDER BY p.created_at DESC LIMIT ? OFFSET ?`,
    ).bind(agencyId, ROSTER_PAGE_SIZE, (rosterPage - 1) * ROSTER_PAGE_SIZE),
    env.DB.prepare("SELECT count(*) AS n FROM profiles WHERE agency_id = ?").bind(agencyId),
  ]);
  const row = agency.results[0] as AgencyRow | undefined;
  if (!row) return null;
  const total = Number((rosterCount.results[0] as { n: number }).n);
  return {
    agency: row,
    tokens: tokens.results as unknown as TokenRow[],
    managers: managers.results as unknown as ManagerRow[],
    roster: roster.results as unknown as RosterRow[],
    rosterTotal: total,
    rosterPage,
    rosterPageCount: Math.max(1, Math.ceil(total / ROSTER_PAGE_SIZE)),
  };
}

// ---------------------------------------------------------------------------------------------
// Dashboard actions (the caller has checked canManageAgency)
// ---------------------------------------------------------------------------------------------

export async function updateAgencyProfile(
  user: Pick<SessionUser, "id">,
  agencyId: string,
  input: { name: string; contactEmail: string; description: string },
  request: Request,
): Promise<ActionResult> {
  try {
    const [res] = await env.DB.batch([
      env.DB.prepare("UPDATE agencies SET name = ?, contact_email = ?, description = ?, updated_at = ? WHERE id = ?").bind(
        input.name,
        input.contactEmail,
        input.description || null,
        new Date().toISOString(),
        agencyId,
      ),
      auditStatement({ eventType: "agency_updated", userId: user.id, request, details: { agency_id: agencyId, name: input.name } }),
    ]);
    if (!res.meta.changes) return AGENCY_NOT_FOUND;
  } catch (error) {
    console.error("agency update failed", error);
    return refuse(500, AGENCY_MESSAGES.update);
  }
  return ok("Agency profile saved.");
}

export async function uploadAgencyLogo(user: Pick<SessionUser, "id">, agencyId: string, file: File | null, request: Request): Promise<ActionResult> {
  if (!file || file.size === 0) return refuse(400, "Choose a logo file (PNG, JPG or WEBP, up to 2 MB).");
  const check = await checkUpload(file, LOGO_TYPES, LOGO_MAX_BYTES, "The logo");
  if (!check.ok) return refuse(400, check.error);
  const previous = await env.DB.prepare("SELECT logo_url FROM agencies WHERE id = ?").bind(agencyId).first<{ logo_url: string | null }>();
  let key: string;
  try {
    key = await putPublicImage(file, check.type, `agency-logos/${agencyId}`);
    await env.DB.batch([
      env.DB.prepare("UPDATE agencies SET logo_url = ?, updated_at = ? WHERE id = ?").bind(avatarUrl(key), new Date().toISOString(), agencyId),
      auditStatement({ eventType: "agency_logo_updated", userId: user.id, request, details: { agency_id: agencyId, key, bytes: check.size } }),
    ]);
  } catch (error) {
    console.error("agency logo upload failed", error);
    return refuse(500, AGENCY_MESSAGES.update);
  }
  // The old logo is ours to delete when it lives under this agency's folder.
  const oldKey = previous?.logo_url ? keyOfLogo(previous.logo_url, agencyId) : null;
  if (oldKey && oldKey !== key) await env.AVATARS.delete(oldKey).catch(() => undefined);
  return ok("Logo updated.");
}

function keyOfLogo(url: string, agencyId: string): string | null {
  const marker = `agency-logos/${agencyId}/`;
  const at = url.indexOf(marker);
  return at >= 0 ? decodeURIComponent(url.slice(at)) : null;
}

/** A new signup token from the CSPRNG (160 bits), for links such as /{slug}/signup?token=… */
export async function createSignupToken(user: Pick<SessionUser, "id">, agencyId: string, request: Request): Promise<ActionResult & { token?: string }> {
  const token = randomToken();
  try {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO agency_signup_tokens (id, agency_id, token, created_by) VALUES (?, ?, ?, ?)").bind(
        crypto.randomUUID(),
        agencyId,
        token,
        user.id,
      ),
      auditStatement({ eventType: "agency_token_created", userId: user.id, request, details: { agency_id: agencyId } }),
    ]);
  } catch (error) {
    console.error("signup token failed", error);
    return refuse(500, AGENCY_MESSAGES.token);
  }
  return { ok: true, message: "Signup token created.", token };
}

export async function revokeSignupToken(user: Pick<SessionUser, "id">, agencyId: string, tokenId: string, request: Request): Promise<ActionResult> {
  // By agency id too: a manager can only ever reach their own agency's tokens.
  const token = await env.DB.prepare("SELECT id FROM agency_signup_tokens WHERE id = ? AND agency_id = ? AND revoked_at IS NULL")
    .bind(tokenId, agencyId)
    .first<{ id: string }>();
  if (!token) return refuse(404, "Token not found or already revoked.");
  await env.DB.batch([
    env.DB.prepare("UPDATE agency_signup_tokens SET revoked_at = ? WHERE id = ? AND agency_id = ?").bind(
      new Date().toISOString(),
      tokenId,
      agencyId,
    ),
    auditStatement({ eventType: "agency_token_revoked", userId: user.id, request, details: { agency_id: agencyId, token_id: tokenId } }),
  ]);
  return ok("Token revoked. Sign-ups with it are no longer attributed to your agency.");
}

export async function addManager(user: Pick<SessionUser, "id">, agencyId: string, email: string, request: Request): Promise<ActionResult> {
  const target = await env.DB.prepare(
    "SELECT u.id, p.full_name, p.is_banned FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = ?",
  )
    .bind(email)
    .first<{ id: string; full_name: string | null; is_banned: number }>();
  if (!target) return refuse(404, `${AGENCY_MESSAGES.addUser}: no account uses ${email}. Ask them to sign up first.`);
  if (target.is_banned) return refuse(409, `${AGENCY_MESSAGES.addUser}: that account is banned.`);
  const agency = await loadAgency(agencyId);
  if (!agency) return AGENCY_NOT_FOUND;
  try {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, role, created_by) VALUES (?, ?, ?, 'manager', ?)").bind(
        crypto.randomUUID(),
        agencyId,
        target.id,
        user.id,
      ),
      auditStatement({
        eventType: "agency_manager_added",
        severity: "medium",
        userId: user.id,
        targetUserId: target.id,
        request,
        details: { agency_id: agencyId },
      }),
    ]);
  } catch (error) {
    if (/UNIQUE/.test(String(error))) return refuse(409, `${AGENCY_MESSAGES.addUser}: ${email} is already a manager.`);
    console.error("adding agency manager failed", error);
    return refuse(500, AGENCY_MESSAGES.addUser);
  }
  await noticeQuietly(
    target.id,
    `You manage ${agency.name}`,
    `You were added as a manager of ${agency.name}. Open the agency dashboard to see its links and roster.`,
    user.id,
    "agency",
  );
  return ok(`${email} is now a manager.`);
}

/**
 * Removes a manager; never the last one (checked in the same batch). Removing the owner also
 * clears agencies.user_id, so ownership cannot keep a removed person in.
 */
export async function removeManager(user: Pick<SessionUser, "id">, agencyId: string, managerUserId: string, request: Request): Promise<ActionResult> {
  const row = await env.DB.prepare("SELECT id FROM agency_users WHERE agency_id = ? AND user_id = ?")
    .bind(agencyId, managerUserId)
    .first<{ id: string }>();
  if (!row) return refuse(404, "Manager not found.");
  try {
    await env.DB.batch([
      precondition("(SELECT count(*) FROM agency_users WHERE agency_id = ? AND user_id != ?) >= 1", agencyId, managerUserId),
      env.DB.prepare("DELETE FROM agency_users WHERE agency_id = ? AND user_id = ?").bind(agencyId, managerUserId),
      env.DB.prepare("UPDATE agencies SET user_id = NULL, updated_at = ? WHERE id = ? AND user_id = ?").bind(
        new Date().toISOString(),
        agencyId,
        managerUserId,
      ),
      auditStatement({
        eventType: "agency_manager_removed",
        severity: "medium",
        userId: user.id,
        targetUserId: managerUserId,
        request,
        details: { agency_id: agencyId },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) return refuse(409, "An agency always keeps at least one manager.");
    console.error("removing agency manager failed", error);
    return refuse(500, AGENCY_MESSAGES.update);
  }
  return ok(managerUserId === user.id ? "You are no longer a manager of this agency." : "Manager removed.");
}
