import { and, eq } from "drizzle-orm";
import { encodeBase64urlNoPadding, decodeBase64urlIgnorePadding } from "@oslojs/encoding";
import { EMAIL_OPT_OUT_CATEGORIES, emailOptOuts } from "~/db/schema";
import { hmacSha256Hex, safeEqual } from "./crypto.server";
import { db } from "./db.server";
import { appLink, env } from "./env.server";
import { UNSUBSCRIBE_PATH } from "./headers.server";

// Optional mail (news: nudges, summaries, campaign news) per address: on unless the address opted
// out, in Settings or with one click from the mail itself (List-Unsubscribe, RFC 8058). The link
// carries the address and an HMAC over it, so it works without signing in and cannot be made for
// another address. Account and money mail ignores this (docs/decisions/0212).

export type OptOutCategory = (typeof EMAIL_OPT_OUT_CATEGORIES)[number];

export { UNSUBSCRIBE_PATH };

function signingKey(): string {
  const secret = env.COOKIE_SECRET;
  if (!secret) throw new Error("COOKIE_SECRET is not set: unsubscribe links cannot be signed");
  return secret;
}

const message = (address: string, category: OptOutCategory) => `unsubscribe|${category}|${address.toLowerCase()}`;

/** The one-click link (POST, RFC 8058) and the Settings page, for a mail of `category` to `address`. */
export async function unsubscribeLinks(address: string, category: OptOutCategory): Promise<{ oneClick: string; settings: string }> {
  const token = await hmacSha256Hex(signingKey(), message(address, category));
  const e = encodeBase64urlNoPadding(new TextEncoder().encode(address.toLowerCase()));
  return { oneClick: appLink(`${UNSUBSCRIBE_PATH}?e=${e}&c=${category}&t=${token}`), settings: appLink("/settings#email") };
}

/** The address a signed unsubscribe link names, or null when the link is not ours. */
export async function verifyUnsubscribeLink(e: string, category: string, token: string): Promise<{ address: string; category: OptOutCategory } | null> {
  if (!(EMAIL_OPT_OUT_CATEGORIES as readonly string[]).includes(category) || !/^[0-9a-f]{64}$/.test(token) || e.length > 400) return null;
  let address: string;
  try {
    address = new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64urlIgnorePadding(e));
  } catch {
    return null;
  }
  const expected = await hmacSha256Hex(signingKey(), message(address, category as OptOutCategory));
  return safeEqual(expected, token) ? { address, category: category as OptOutCategory } : null;
}

export async function isOptedOut(address: string, category: OptOutCategory): Promise<boolean> {
  const row = await db()
    .select({ email: emailOptOuts.email })
    .from(emailOptOuts)
    .where(and(eq(emailOptOuts.email, address.toLowerCase()), eq(emailOptOuts.category, category)))
    .get();
  return Boolean(row);
}

/** Turns a category of optional mail on or off for an address (idempotent). */
export async function setOptOut(address: string, category: OptOutCategory, optedOut: boolean): Promise<void> {
  const email = address.toLowerCase();
  if (optedOut) await db().insert(emailOptOuts).values({ email, category }).onConflictDoNothing().run();
  else
    await db()
      .delete(emailOptOuts)
      .where(and(eq(emailOptOuts.email, email), eq(emailOptOuts.category, category)))
      .run();
}

/** A deleted account's address keeps no preference behind. */
export function forgetOptOutsQuery(address: string) {
  return db().delete(emailOptOuts).where(eq(emailOptOuts.email, address.toLowerCase()));
}
