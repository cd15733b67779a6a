import { eq, sql, type SQL } from "drizzle-orm";
import { profiles, users } from "~/db/schema";
import { db } from "~/platform/db.server";
import { isAdminUser } from "./directory.server";

// What the growth module (issue 18: /referrals, /user-retention) and the referral bonus read of
// people, as the accounts module answers it: facts per person as columns and named predicates, in
// a query the caller filters, groups and batches. Only this module reads profiles and users.
// The referral rules live here once (docs/decisions/0171-referral-rules.md):
//   - the code is the referrer's creator_id, stored as profiles.referred_by at sign-up only;
//   - a clipper invite (sign-up with the clipper opt-in and its agreement) is not a referral;
//   - referring yourself is not a referral: the same account, the same e-mail (ignoring case and a
//     +tag) or the same phone number, whenever either adds it.

/** lower(e-mail) without a "+tag" in its local part: a+x@b.c and A@b.c are the same person. */
const plainEmail = (email: SQL | typeof users.email) =>
  sql`lower(case when instr(${email}, '+') > 0 and instr(${email}, '+') < instr(${email}, '@') then substr(${email}, 1, instr(${email}, '+') - 1) || substr(${email}, instr(${email}, '@')) else ${email} end)`;

/** The user joined as a clipper through the invite (spec: clipper=1 and the Clipper Agreement). */
const joinedAsClipper = sql`(coalesce(json_extract(${users.userMetadata}, '$.wants_to_be_clipper'), 0) = 1 and coalesce(json_extract(${users.userMetadata}, '$.clipper_agreement_accepted'), 0) = 1)`;

/** The referrer's user id when this person is a genuine referral (see the rules above), else NULL. */
const genuineReferrer = sql<
  string | null
>`(case when ${profiles.referredBy} is not null and ${profiles.referredBy} <> ${profiles.userId} and not ${joinedAsClipper} and not exists (select 1 from ${users} as ru where ru.id = ${profiles.referredBy} and (${plainEmail(sql`ru.email`)} = ${plainEmail(users.email)} or (ru.phone is not null and ru.phone = ${users.phone}))) then ${profiles.referredBy} end)`;

/**
 * People (profiles with their accounts) and the facts growth reports on, as a subquery named
 * "people" for the caller's own select, where, group by and batch (SQLite flattens it, so the
 * indexes of profiles still serve its filters). Not executed here.
 */
export function growthPeople() {
  return db()
    .select({
      userId: profiles.userId,
      email: users.email,
      fullName: profiles.fullName,
      approvalStatus: profiles.approvalStatus,
      isBanned: profiles.isBanned,
      isMusicPartner: profiles.isMusicPartner,
      /** When the account was created (sign-up). */
      joinedAt: profiles.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      /** The first channel link (the creator's term start). */
      channelLinkedAt: profiles.termStartedAt,
      agencyId: profiles.agencyId,
      /** profiles.referred_by as stored (indexed): narrow with it, decide with referrerId. */
      referredBy: profiles.referredBy,
      /** The genuine referrer's user id, or NULL. */
      referrerId: genuineReferrer.as("referrer_id"),
      /** 'agency' (joined through an agency), 'referral' (a genuine referral) or 'direct'. */
      source: sql<
        "direct" | "referral" | "agency"
      >`(case when ${profiles.agencyId} is not null then 'agency' when ${genuineReferrer} is not null then 'referral' else 'direct' end)`.as("source"),
      /** The genuine referrer is banned now (1/0): a banned referrer earns nothing new. */
      referrerBanned: sql<number>`coalesce((select rp.is_banned from ${profiles} as rp where rp.user_id = ${genuineReferrer}), 0)`.as("referrer_banned"),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .as("people");
}
export type GrowthPeople = ReturnType<typeof growthPeople>;

/**
 * "This user is an approved creator" over a user id (a column or an SQL expression such as the
 * session's user), for a WHERE: approved, not banned, and not an account of another kind — a music
 * partner, an admin, or someone who joined through a clipper invite (the rule above). Agency
 * managers count: they are creators who also run an agency. The dashboard's money card reads it
 * (docs/decisions/0328).
 */
export function isApprovedCreator(userId: SQL): SQL {
  return sql`exists (select 1 from ${profiles} inner join ${users} on ${users.id} = ${profiles.userId} where ${profiles.userId} = ${userId} and ${profiles.approvalStatus} = 'approved' and ${profiles.isBanned} = 0 and ${profiles.isMusicPartner} = 0 and not ${joinedAsClipper} and not ${isAdminUser(profiles.userId)})`;
}
