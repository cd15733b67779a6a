import { and, desc, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { phoneCodes, users } from "~/db/schema";
import { conflict, invalid, rateLimited } from "~/lib/errors";
import { authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { hmacSha256Hex, safeEqual } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { appName, env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume, ipScope, logRateLimitHit, PHONE_CODE_LIMITS } from "~/platform/rate-limit.server";
import { sendSms } from "~/platform/sms.server";
import { actorOf } from "./directory.server";
import type { PhoneState } from "./schema";
import type { SessionUser } from "./session.server";

// A phone number as a second sign-in identifier (spec section 2: 'e-mail (or phone) and
// password'). Added in Settings and verified once with a 6-digit code sent by text; there is no
// sign-in by text code. See docs/decisions/0075-phone-sign-in.md and 0076-sms-limits.md.

export const PHONE_CODE_TTL_MS = 10 * 60_000;
export const PHONE_CODE_MAX_ATTEMPTS = 5;

const CODE_REFUSED = "This code is invalid or has expired. Send a new code.";
const TAKEN = "This phone number is already verified on another account. Remove it there first, or use another number.";

// ---------------------------------------------------------------------------------------------
// Country calling codes (ITU-T E.164): a prefix code of 1 to 3 digits, so the zone digit and the
// short list of 2-digit codes decide the length without a phone library.
// ---------------------------------------------------------------------------------------------

// biome-ignore format: one zone per line
const TWO_DIGIT_CODES = new Set([
  "20", "27",
  "30", "31", "32", "33", "34", "36", "39",
  "40", "41", "43", "44", "45", "46", "47", "48", "49",
  "51", "52", "53", "54", "55", "56", "57", "58",
  "60", "61", "62", "63", "64", "65", "66",
  "81", "82", "84", "86",
  "90", "91", "92", "93", "94", "95", "98",
]);

/** The country calling code of an E.164 number, with its '+': '+1', '+44', '+353'. */
export function countryPrefix(phone: string): string {
  const digits = phone.replace(/^\+/, "");
  if (digits[0] === "1" || digits[0] === "7") return `+${digits[0]}`;
  if (TWO_DIGIT_CODES.has(digits.slice(0, 2))) return `+${digits.slice(0, 2)}`;
  return `+${digits.slice(0, 3)}`;
}

/** '+44 … 23': enough to recognise one's own number in the audit log, not to dial it. */
function masked(phone: string): string {
  return `${countryPrefix(phone)} … ${phone.slice(-2)}`;
}

// ---------------------------------------------------------------------------------------------
// Codes
// ---------------------------------------------------------------------------------------------

/** Six digits from the CSPRNG, uniform (rejection sampling). */
function sixDigitCode(): string {
  const buf = new Uint32Array(1);
  const bound = 4_294_000_000; // the largest multiple of 1,000,000 below 2^32
  for (;;) {
    const [value] = crypto.getRandomValues(buf);
    if (value !== undefined && value < bound) return String(value % 1_000_000).padStart(6, "0");
  }
}

/**
 * The code at rest: an HMAC keyed by a server secret over the code's row, number and digits. A
 * plain hash of six digits would fall to a million guesses offline; this needs the secret too.
 */
function codeHash(id: string, phone: string, code: string): Promise<string> {
  return hmacSha256Hex(env.COOKIE_SECRET, `phone-code|${id}|${phone}|${code}`);
}

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

/** The phone section of Settings: the number, whether it is verified, whether a code is waiting. */
export async function phoneSettings(user: SessionUser): Promise<PhoneState> {
  authorize(actorOf(user), "account", "read");
  const nowIso = new Date().toISOString();
  const [account, pending] = await db().batch([
    db().select({ phone: users.phone, verifiedAt: users.phoneVerifiedAt }).from(users).where(eq(users.id, user.id)),
    db()
      .select({ phone: phoneCodes.phone })
      .from(phoneCodes)
      .where(
        and(
          eq(phoneCodes.userId, user.id),
          isNull(phoneCodes.consumedAt),
          sql`${phoneCodes.expiresAt} > ${nowIso}`,
          lt(phoneCodes.attempts, PHONE_CODE_MAX_ATTEMPTS),
        ),
      )
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1),
  ]);
  const phone = account[0]?.phone ?? null;
  const verified = Boolean(phone && account[0]?.verifiedAt);
  return { phone, verified, codeSent: !verified && pending[0]?.phone === phone && phone !== null };
}

/** A limit of PHONE_CODE_LIMITS was reached: 'Rate limit exceeded', 429 with Retry-After. */
async function refuse(request: Request, user: SessionUser, bucket: string, retryAfterSeconds: number): Promise<never> {
  await logRateLimitHit(request, bucket, user.id);
  throw rateLimited(retryAfterSeconds);
}

/**
 * Sends a verification code to `phone` (E.164) and makes it the account's number, unverified (a
 * changed number no longer signs in). Limits first, each one exact, narrowest first so a refused
 * send does not spend the wider budgets.
 */
export async function sendPhoneCode(request: Request, user: SessionUser, phone: string): Promise<void> {
  authorize(actorOf(user), "account", "update");
  const current = await db().select({ phone: users.phone, verifiedAt: users.phoneVerifiedAt }).from(users).where(eq(users.id, user.id)).get();
  if (current?.phone === phone && current.verifiedAt) {
    throw invalid("This number is already verified on your account.", { title: "Already verified", fieldErrors: { phone: "Already verified." } });
  }

  const checks: [string, string, (typeof PHONE_CODE_LIMITS)[keyof typeof PHONE_CODE_LIMITS]][] = [
    ["phone-code:user", `user:${user.id}`, PHONE_CODE_LIMITS.user],
    ["phone-code:ip", ipScope(request), PHONE_CODE_LIMITS.ip],
    ["phone-code:number", `number:${phone}`, PHONE_CODE_LIMITS.number],
    ["phone-code:country", `country:${countryPrefix(phone)}`, PHONE_CODE_LIMITS.country],
  ];
  for (const [bucket, scope, limit] of checks) {
    const state = await consume(bucket, scope, limit);
    if (!state.allowed) await refuse(request, user, bucket, state.retryAfterSeconds);
  }

  const id = crypto.randomUUID();
  const code = sixDigitCode();
  const now = new Date();
  const nowIso = now.toISOString();
  await db().batch([
    // One code at a time: a new one retires the others.
    db()
      .update(phoneCodes)
      .set({ consumedAt: nowIso })
      .where(and(eq(phoneCodes.userId, user.id), isNull(phoneCodes.consumedAt))),
    db().update(users).set({ phone, phoneVerifiedAt: null, updatedAt: nowIso }).where(eq(users.id, user.id)),
    db()
      .insert(phoneCodes)
      .values({
        id,
        userId: user.id,
        phone,
        codeHash: await codeHash(id, phone, code),
        expiresAt: new Date(now.getTime() + PHONE_CODE_TTL_MS).toISOString(),
      }),
    auditQuery({ eventType: "phone_code_sent", userId: user.id, targetUserId: user.id, request, details: { phone: masked(phone) } }),
  ]);
  await sendSms(phone, `${code} is your ${appName()} verification code. It expires in 10 minutes. Never share it with anyone.`);
}

/**
 * Checks the code sent to the account's number. Every try is counted by a guarded update before
 * the code is compared (at most 5, even in parallel); the right code is consumed once, in the
 * batch that marks the number verified, so of two parallel right answers one succeeds.
 */
export async function verifyPhoneCode(request: Request, user: SessionUser, code: string): Promise<void> {
  authorize(actorOf(user), "account", "update");
  const refused = () => invalid(CODE_REFUSED, { title: "Verification failed", fieldErrors: { code: CODE_REFUSED } });
  const nowIso = new Date().toISOString();
  const row = await db()
    .select({ id: phoneCodes.id, phone: phoneCodes.phone, codeHash: phoneCodes.codeHash, expiresAt: phoneCodes.expiresAt })
    .from(phoneCodes)
    .innerJoin(users, and(eq(users.id, phoneCodes.userId), eq(users.phone, phoneCodes.phone), isNull(users.phoneVerifiedAt)))
    .where(and(eq(phoneCodes.userId, user.id), isNull(phoneCodes.consumedAt)))
    .orderBy(desc(phoneCodes.createdAt))
    .limit(1)
    .get();
  if (!row || row.expiresAt <= nowIso) throw refused();

  // Count the try first: a guarded increment, so parallel guesses cannot exceed the limit.
  const counted = await db()
    .update(phoneCodes)
    .set({ attempts: sql`${phoneCodes.attempts} + 1` })
    .where(and(eq(phoneCodes.id, row.id), isNull(phoneCodes.consumedAt), lt(phoneCodes.attempts, PHONE_CODE_MAX_ATTEMPTS)))
    .returning({ attempts: phoneCodes.attempts });
  const [count] = counted;
  if (!count) {
    const message = "Too many wrong codes. Send a new code.";
    throw invalid(message, { title: "Verification failed", fieldErrors: { code: message } });
  }

  if (!safeEqual(await codeHash(row.id, row.phone, code), row.codeHash)) {
    const left = PHONE_CODE_MAX_ATTEMPTS - count.attempts;
    const message = left > 0 ? `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.` : "That code is not right. Send a new code.";
    throw invalid(message, { title: "Verification failed", fieldErrors: { code: message } });
  }

  try {
    await db().batch([
      db()
        .update(phoneCodes)
        .set({ consumedAt: nowIso })
        .where(and(eq(phoneCodes.id, row.id), isNull(phoneCodes.consumedAt))),
      precondition(previousStatementChanged(1)),
      db()
        .update(users)
        .set({ phoneVerifiedAt: nowIso, updatedAt: nowIso })
        .where(and(eq(users.id, user.id), eq(users.phone, row.phone), isNull(users.phoneVerifiedAt))),
      precondition(previousStatementChanged(1)),
      auditQuery({ eventType: "phone_verified", severity: "medium", userId: user.id, targetUserId: user.id, request, details: { phone: masked(row.phone) } }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw refused();
    if (/UNIQUE.*users\.phone/.test(`${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`)) {
      throw conflict(TAKEN, { title: "Number already in use", fieldErrors: { code: TAKEN } });
    }
    throw error;
  }
}

/** Removes the account's number (verified or not) and retires its codes. */
export async function removePhone(request: Request, user: SessionUser): Promise<void> {
  authorize(actorOf(user), "account", "update");
  const nowIso = new Date().toISOString();
  await db().batch([
    db().update(users).set({ phone: null, phoneVerifiedAt: null, updatedAt: nowIso }).where(eq(users.id, user.id)),
    db()
      .update(phoneCodes)
      .set({ consumedAt: nowIso })
      .where(and(eq(phoneCodes.userId, user.id), isNull(phoneCodes.consumedAt))),
    auditQuery({ eventType: "phone_removed", severity: "medium", userId: user.id, targetUserId: user.id, request }),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------------

/**
 * The e-mail a sign-in identifier stands for: a verified phone number (E.164, as signInSchema
 * leaves it) signs in as its account's e-mail, so both share one per-account limit and one
 * answer. Anything else (an e-mail, an unknown or unverified number) is returned as it came and
 * finds no account by a number.
 */
export async function emailForSignIn(identifier: string): Promise<string> {
  if (!identifier.startsWith("+") || identifier.includes("@")) return identifier;
  const row = await db()
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.phone, identifier), isNotNull(users.phoneVerifiedAt)))
    .get();
  return row?.email ?? identifier;
}
