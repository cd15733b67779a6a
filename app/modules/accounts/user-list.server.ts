import { and, desc, eq, exists, gt, or, sql, type SQL } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { profiles, sessions, users } from "~/db/schema";
import { authorize, type Actor } from "~/lib/permissions";
import { fact } from "~/platform/account-hooks.server";
import { db } from "~/platform/db.server";
import { deliveriesTo } from "~/platform/email-status.server";
import { cappedCount, cappedPages, one, pageWithinCap } from "~/platform/capped-count.server";
import { containsText } from "~/platform/text-search.server";
import { isAdminUser, profileStandingColumns } from "./directory.server";

export const USERS_PAGE_SIZE = 20;

/** The admin's user list as its schema (admin/schema) parses it: this module needs only the shape. */
export type UserListQuery = { q: string; status: "all" | "pending" | "approved" | "rejected" | "banned" | "admin"; page: number };

// The admin console's list of users and a user's details, and SQL over people for other modules'
// lists. The actions on a user: moderation.server.ts.

// ---------------------------------------------------------------------------------------------
// SQL over people, for other modules' lists (the audit log); see also people-queries.server.ts
// ---------------------------------------------------------------------------------------------

// Searches use containsText (instr, not LIKE: D1 refuses LIKE patterns over 50 bytes; 0201).
const contains = containsText;

/** "The user in this user id column has an e-mail containing `text`" (case-insensitive). */
export function userEmailContains(userId: SQLiteColumn | SQL, text: string): SQL {
  return exists(
    db()
      .select({ one: sql`1` })
      .from(users)
      .where(and(eq(users.id, userId), contains(users.email, text))),
  );
}

// ---------------------------------------------------------------------------------------------
// Users: list and details
// ---------------------------------------------------------------------------------------------

/** Searches this long or longer (in characters) read the trigram index users_search (0341). */
export const INDEXED_SEARCH_MIN = 3;

/**
 * "The user's e-mail or name contains `q`" (case-insensitive). From 3 characters it is read from
 * users_search (migration 0038: an FTS5 trigram index of each user's e-mail and name, kept by
 * triggers): a quoted FTS5 string is a substring match there (https://sqlite.org/fts5.html, "The
 * Trigram Tokenizer"). Shorter searches have no trigram to look up and scan every user, as all did.
 */
function userMatches(q: string): SQL {
  if ([...q].length < INDEXED_SEARCH_MIN) {
    return or(contains(users.email, q), contains(sql`coalesce(${profiles.fullName}, '')`, q)) as SQL;
  }
  const phrase = `"${q.replaceAll('"', '""')}"`;
  return sql`${users}.rowid in (select rowid from users_search where users_search match ${phrase})`;
}

export const isAdminColumn = () => isAdminUser(users.id).mapWith(Boolean);

/** Who a user is and where they stand: the columns of a list row and of an action's target. */
export const standingColumns = () => ({
  id: users.id,
  email: users.email,
  fullName: profiles.fullName,
  approvalStatus: profiles.approvalStatus,
  isBanned: profiles.isBanned,
  isMusicPartner: profiles.isMusicPartner,
  isAdmin: isAdminColumn(),
  signUpDetailsMissing: profiles.signUpDetailsMissing,
});

/** A user's standing, as `standingColumns` reads it. */
export type Standing = {
  id: string;
  email: string;
  fullName: string | null;
  approvalStatus: "pending" | "approved" | "rejected";
  isBanned: boolean;
  isMusicPartner: boolean;
  isAdmin: boolean;
  /** A Google sign-up that has not given its details and accepted the terms yet (docs/decisions/0324). */
  signUpDetailsMissing: boolean;
};

export type AdminUserRow = Standing & { createdAt: string; emailVerifiedAt: string | null };

/** One page of users for the admin console, searched and filtered on the server (one batch). */
export async function listUsers(actor: Actor, query: UserListQuery) {
  authorize(actor, "user", "list");
  const conditions: (SQL | undefined)[] = [];
  if (query.q) conditions.push(userMatches(query.q));
  switch (query.status) {
    case "pending":
      // The queue: an unfinished Google sign-up joins it once it has given its details (0324).
      conditions.push(eq(profiles.approvalStatus, "pending"), eq(profiles.signUpDetailsMissing, false));
      break;
    case "approved":
    case "rejected":
      conditions.push(eq(profiles.approvalStatus, query.status));
      break;
    case "banned":
      conditions.push(eq(profiles.isBanned, true));
      break;
    case "admin":
      conditions.push(isAdminUser(users.id));
      break;
  }
  const where = and(...conditions);
  // The total is counted up to COUNT_CAP ("10,000+") and the pages stop there (0340).
  const page = pageWithinCap(query.page, USERS_PAGE_SIZE);
  const [rows, total] = await db().batch([
    db()
      .select({ ...standingColumns(), createdAt: users.createdAt, emailVerifiedAt: users.emailVerifiedAt })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(where)
      .orderBy(desc(users.createdAt), users.id)
      .limit(USERS_PAGE_SIZE)
      .offset((page - 1) * USERS_PAGE_SIZE),
    cappedCount(db().select({ one: one() }).from(users).innerJoin(profiles, eq(profiles.userId, users.id)).where(where)),
  ]);
  return { users: rows satisfies AdminUserRow[], page, ...cappedPages(total[0]?.n ?? 0, USERS_PAGE_SIZE) };
}

export type SignUpDetails = {
  youtubeChannelUrl: string | null;
  subscriberCount: number | null;
  monthlyViews: number | null;
  referralCode: string | null;
  agencySlug: string | null;
  agencyName: string | null;
  wantsToBeClipper: boolean;
  clipperAgreementAccepted: boolean;
};

/** The sign-up metadata as sent (users.user_metadata, snake_case JSON), read defensively. */
function signUpDetails(raw: string): SignUpDetails {
  let m: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === "object") m = parsed as Record<string, unknown>;
  } catch {
    // shown as empty
  }
  const str = (k: string) => (typeof m[k] === "string" && m[k] ? String(m[k]) : null);
  const num = (k: string) => {
    const v = m[k];
    return typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null;
  };
  return {
    youtubeChannelUrl: str("youtube_channel_url"),
    subscriberCount: num("subscriber_count"),
    monthlyViews: num("monthly_views"),
    referralCode: str("referral_code"),
    agencySlug: str("agency_slug"),
    agencyName: str("agency_name"),
    wantsToBeClipper: m.wants_to_be_clipper === true,
    clipperAgreementAccepted: m.clipper_agreement_accepted === true,
  };
}

/** Everything the admin's user panel shows, in one statement; null for an unknown id. */
export async function getUserDetails(actor: Actor, userId: string) {
  authorize(actor, "user", "read");
  const referrer = alias(users, "referrer");
  const agency = fact("agencyLabelOf")(profiles.agencyId);
  const row = await db()
    .select({
      id: users.id,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      userMetadata: users.userMetadata,
      createdAt: users.createdAt,
      ...profileStandingColumns,
      deletionRequestedAt: users.deletionRequestedAt,
      deletionDueAt: users.deletionDueAt,
      deletedAt: users.deletedAt,
      agencyName: agency.name,
      agencySlug: agency.slug,
      referredByEmail: referrer.email,
      isAdmin: isAdminColumn(),
      sessionCount: db().$count(sessions, and(eq(sessions.userId, users.id), gt(sessions.expiresAt, new Date().toISOString()))),
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(referrer, eq(referrer.id, profiles.referredBy))
    .where(eq(users.id, userId))
    .get();
  if (!row) return null;
  const { userMetadata, ...rest } = row;
  // Their latest e-mails and how each was delivered (sent, retrying, failed with the reason).
  const emails = await deliveriesTo(row.email);
  return { ...rest, signUp: signUpDetails(userMetadata), emails };
}
export type AdminUserDetails = NonNullable<Awaited<ReturnType<typeof getUserDetails>>>;

/** The /admin page: a page of users and, when one is selected, their details (in parallel). */
export async function usersConsolePage(actor: Actor, query: UserListQuery, selectedId: string | null) {
  const [list, selected] = await Promise.all([listUsers(actor, query), selectedId ? getUserDetails(actor, selectedId) : null]);
  return { ...list, selected };
}
