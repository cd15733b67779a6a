import { and, desc, eq, sql } from "drizzle-orm";
import { encode, renderSVG } from "uqr";
import { encodePng } from "~/lib/png";
import { type Actor, authorize } from "~/lib/permissions";
import { growthPeople } from "~/modules/accounts/accounts.server";
import { notifyUser } from "~/modules/notifications/notifications.server";
import { hasEarnings, referralBonusTotalsQuery } from "~/modules/payments/payments.server";
import { db } from "~/platform/db.server";
import { appLink } from "~/platform/email.server";
import { getSettings } from "~/platform/settings.server";
import type { ReferralStage, ReferralsPage } from "./types";

// /referrals (issue 18; docs/decisions/0171-referral-rules.md): the approved user's code (their
// profile's creator_id, fixed), the link /auth?ref=CODE and its QR code, how many people joined
// through it and how far they got, the people (name, stage, join date: never e-mail or earnings),
// and the referral bonus in total (earned and upcoming), never per person.

/** The people listed on the page (the counts cover everyone). */
export const REFERRALS_LISTED = 200;

export function referralLink(code: string): string {
  return appLink(`/auth?ref=${encodeURIComponent(code)}`);
}

export async function referralsPage(actor: Actor, code: string): Promise<ReferralsPage> {
  authorize(actor, "growth", "readOwnReferrals");
  // Narrowed by the stored referrer (indexed), decided by the referral rules (genuineReferrer).
  const p = growthPeople();
  const mine = and(eq(p.referredBy, actor.id), sql`${p.referrerId} = ${actor.id}`);
  const [counts, people, totals] = await db().batch([
    db()
      .select({
        signedUp: sql<number>`count(*)`.mapWith(Number),
        approved: sql<number>`coalesce(sum(${p.approvalStatus} = 'approved'), 0)`.mapWith(Number),
        channelLinked: sql<number>`coalesce(sum(${p.channelLinkedAt} is not null), 0)`.mapWith(Number),
        earning: sql<number>`coalesce(sum(${hasEarnings(p.userId)}), 0)`.mapWith(Number),
      })
      .from(p)
      .where(mine),
    db()
      .select({
        id: p.userId,
        fullName: p.fullName,
        approvalStatus: p.approvalStatus,
        isBanned: p.isBanned,
        channelLinked: sql<boolean>`${p.channelLinkedAt} is not null`.mapWith(Boolean),
        earning: sql<boolean>`${hasEarnings(p.userId)}`.mapWith(Boolean),
        joinedAt: p.joinedAt,
      })
      .from(p)
      .where(mine)
      .orderBy(desc(p.joinedAt))
      .limit(REFERRALS_LISTED),
    referralBonusTotalsQuery(actor.id),
  ]);
  const c = counts[0] ?? { signedUp: 0, approved: 0, channelLinked: 0, earning: 0 };
  const stage = (p: (typeof people)[number]): ReferralStage =>
    p.isBanned ? "inactive" : p.approvalStatus !== "approved" ? p.approvalStatus : p.earning ? "earning" : p.channelLinked ? "channel_linked" : "approved";
  const settings = await getSettings();
  return {
    code,
    link: referralLink(code),
    counts: c,
    people: people.map((p) => ({ id: p.id, name: p.fullName?.trim() || "Creator", stage: stage(p), joinedAt: p.joinedAt })),
    more: Math.max(0, c.signedUp - people.length),
    bonus: { bp: settings.referralBonusBp, earnedCents: totals[0]?.earnedCents ?? 0, upcomingCents: totals[0]?.upcomingCents ?? 0 },
  };
}

/** The referral link as a QR code (SVG, black on white, with a quiet zone). */
export function referralQrSvg(actor: Actor, code: string): string {
  authorize(actor, "growth", "readOwnReferrals");
  return renderSVG(referralLink(code), { ecc: "M", border: 2, pixelSize: 8, whiteColor: "#ffffff", blackColor: "#000000" });
}

/**
 * Tells the referrer (a bell notification, live through their socket) that the person they
 * referred signed up or was approved (issue 31 §4). Only a genuine referral counts (the rules of
 * growthPeople: not themselves, not a clipper invite), and the referred person is named as on
 * /referrals (never their e-mail). Never fails the caller: the sign-up or approval is done.
 */
export async function tellReferrer(userId: string, event: "signed_up" | "approved"): Promise<void> {
  try {
    const p = growthPeople();
    const row = await db().select({ referrerId: p.referrerId, name: p.fullName }).from(p).where(eq(p.userId, userId)).get();
    if (!row?.referrerId) return;
    const name = row.name?.trim() || "Someone";
    await notifyUser(
      row.referrerId,
      event === "signed_up"
        ? { title: "New referral", content: `${name} signed up with your referral link. You will be told when they are approved.`, kind: "referral" }
        : { title: "Referral approved", content: `${name}, who signed up with your referral link, is approved.`, kind: "referral" },
    );
  } catch (error) {
    console.error("referrer notification failed", error);
  }
}

/** The referral link's QR code as a PNG (black on white, a quiet zone of 4 modules, 10 px a module): for print and chat apps that refuse SVG. */
export async function referralQrPng(actor: Actor, code: string): Promise<Uint8Array> {
  authorize(actor, "growth", "readOwnReferrals");
  const { data } = encode(referralLink(code), { ecc: "M", border: 4 });
  const SCALE = 10;
  const side = data.length * SCALE;
  return encodePng(side, side, (x, y) => (data[Math.floor(y / SCALE)]?.[Math.floor(x / SCALE)] ? BLACK : WHITE));
}
const BLACK = [0, 0, 0] as const;
const WHITE = [255, 255, 255] as const;
