import { data } from "react-router";
import { GENERIC_LIMIT, SIGNUP_LIMIT, SUSPICIOUS_LIMIT } from "~/lib/constants";
import { audit } from "./audit.server";
import { env } from "./env.server";
import { clientIp } from "./request-info.server";
import { getSettings } from "./settings.server";

// Fixed-window counters. Two stores, chosen by bucket (docs/decisions/0040-atomic-rate-limits.md,
// which limit lives where: 0291):
// - the limits that guard a password, a code, an export, sending or a submission (ATOMIC_BUCKETS)
//   count in a Durable Object per bucket and subject, exact under concurrency: the 6th of 30
//   parallel attempts is refused;
// - the coarse ones count in KV (docs/decisions/0005), eventually consistent, free of a round trip
//   to an object. Key: rl:<bucket>:<scope>:<window index>.

export type Limit = { maxAttempts: number; windowMs: number };
export type LimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

export const LIMITS = {
  signup: SIGNUP_LIMIT,
  generic: GENERIC_LIMIT,
  suspicious: SUSPICIOUS_LIMIT,
} as const;

/**
 * The limits in force: the attempt counts come from the admin settings (cached ~30 s per
 * isolate, see settings.server.ts); the windows are fixed by the spec.
 */
export async function getLimits(): Promise<Record<keyof typeof LIMITS, Limit>> {
  const s = await getSettings();
  return {
    signup: { ...SIGNUP_LIMIT, maxAttempts: s.signupLimitPerHour },
    generic: { ...GENERIC_LIMIT, maxAttempts: s.genericLimitPer15Min },
    suspicious: { ...SUSPICIOUS_LIMIT, maxAttempts: s.suspiciousLimitPer15Min },
  };
}

/** A LIMITS entry is replaced by its setting; any other limit object is used as given. */
async function inForce(limit: Limit): Promise<Limit> {
  const name = (Object.keys(LIMITS) as (keyof typeof LIMITS)[]).find((k) => LIMITS[k] === limit);
  return name ? (await getLimits())[name] : limit;
}

function windowOf(limit: Limit, now: number) {
  const index = Math.floor(now / limit.windowMs);
  const endsAt = (index + 1) * limit.windowMs;
  return { index, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)) };
}

function key(bucket: string, scope: string, index: number) {
  return `rl:${bucket}:${scope}:${index}`;
}

/**
 * Buckets counted exactly (a Durable Object round trip): every limit that guards a password, a
 * code, an export, sending or a submission (docs/decisions/0291 lists each bucket and its store).
 * A bucket is matched by its name or its prefix before ':'.
 */
export const ATOMIC_BUCKETS = new Set([
  // Passwords and codes.
  "signin",
  "change-password",
  "delete-account",
  "admin-recovery",
  "licence-lookup",
  "suspicious",
  // Exports.
  "data-export",
  // Sending e-mails and texts.
  "signup",
  "reset",
  "verify-resend",
  "phone-code",
  "agency-manager",
  // Clipper invitations: per creator, and invitation e-mails per address (docs/decisions/0205).
  "clipper-invite",
  // Submissions and billed work.
  "channel-submit",
  "agency-apply",
  "music-submit",
  "campaign-submit",
  "thumbnail-ai",
]);

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Verification texts (docs/decisions/0076), all counted exactly ("phone-code:*" buckets), checked
 * in this order so a refused send does not spend the wider budgets: per user, per address, per
 * number, and a daily cap per country calling code against SMS pumping (toll fraud that sends
 * texts to premium ranges of one country). A text costs money: these are deliberately tight.
 */
export const PHONE_CODE_LIMITS = {
  user: { maxAttempts: 3, windowMs: HOUR_MS },
  ip: { maxAttempts: 10, windowMs: HOUR_MS },
  number: { maxAttempts: 5, windowMs: DAY_MS },
  country: { maxAttempts: 300, windowMs: DAY_MS },
} as const satisfies Record<string, Limit>;

/**
 * The public licence verification page (/licences/:code, bucket "licence-lookup", per address):
 * with 60-bit codes it mostly slows a scraper down (docs/decisions/0118), but it is the limit on
 * guessing a code, so it is counted exactly like every other code check (docs/decisions/0291).
 */
export const LICENCE_LOOKUP_LIMIT = { maxAttempts: 60, windowMs: 15 * 60_000 } as const satisfies Limit;

/**
 * The thumbnail editor's server AI (buckets "thumbnail-ai:captions" / "thumbnail-ai:backgrounds",
 * per admin, counted exactly): each call runs a billed Workers AI model (docs/decisions/0187).
 */
export const THUMBNAIL_AI_LIMITS = {
  captions: { maxAttempts: 30, windowMs: HOUR_MS },
  backgrounds: { maxAttempts: 10, windowMs: HOUR_MS },
} as const satisfies Record<string, Limit>;

export function isAtomicBucket(bucket: string): boolean {
  const [prefix = bucket] = bucket.split(":");
  return ATOMIC_BUCKETS.has(bucket) || ATOMIC_BUCKETS.has(prefix);
}

function limiterOf(bucket: string, scope: string) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`${bucket}|${scope}`));
}

async function read(k: string): Promise<number> {
  const raw = await env.RATE_LIMITS.get(k);
  return raw ? Number.parseInt(raw, 10) || 0 : 0;
}

/** Is there room left in the window (without using any)? */
export async function peek(bucket: string, scope: string, requested: Limit, now = Date.now()): Promise<LimitResult> {
  const limit = await inForce(requested);
  if (isAtomicBucket(bucket)) return limiterOf(bucket, scope).peek(limit.maxAttempts, limit.windowMs, now);
  const w = windowOf(limit, now);
  const count = await read(key(bucket, scope, w.index));
  return { allowed: count < limit.maxAttempts, count, retryAfterSeconds: w.retryAfterSeconds };
}

/** Uses one attempt; refused once the window holds maxAttempts. */
export async function consume(bucket: string, scope: string, requested: Limit, now = Date.now()): Promise<LimitResult> {
  const limit = await inForce(requested);
  if (isAtomicBucket(bucket)) return limiterOf(bucket, scope).hit(limit.maxAttempts, limit.windowMs, now);
  const w = windowOf(limit, now);
  const k = key(bucket, scope, w.index);
  const count = await read(k);
  if (count >= limit.maxAttempts) return { allowed: false, count, retryAfterSeconds: w.retryAfterSeconds };
  await env.RATE_LIMITS.put(k, String(count + 1), {
    // KV's minimum TTL is 60 s; keep the key for its window plus a margin.
    expirationTtl: Math.max(60, Math.ceil(limit.windowMs / 1000) + 60),
  });
  return { allowed: true, count: count + 1, retryAfterSeconds: w.retryAfterSeconds };
}

/**
 * Gives back an attempt taken with `consume` (exact buckets only). Used where every attempt must
 * be counted before the expensive check runs, so parallel attempts cannot all pass it, but only
 * failures should stay counted (a successful sign-in).
 */
export async function release(bucket: string, scope: string, requested: Limit, now = Date.now()): Promise<void> {
  if (!isAtomicBucket(bucket)) return;
  const limit = await inForce(requested);
  await limiterOf(bucket, scope).release(limit.windowMs, now);
}

/**
 * Exact sliding-window limits (bucket "<name>" counted in its own Durable Object per subject): at
 * most maxAttempts in any windowMs. `at` identifies the attempt for `releaseRecent`. Used where a
 * fixed window's edge (twice the limit across it) is not acceptable: the chat send rate (0204).
 */
export function consumeRecent(bucket: string, scope: string, limit: Limit, now = Date.now()) {
  return limiterOf(bucket, scope).hitRecent(limit.maxAttempts, limit.windowMs, now);
}

export async function releaseRecent(bucket: string, scope: string, at: number): Promise<void> {
  await limiterOf(bucket, scope).releaseRecent(at);
}

export function ipScope(request: Request): string {
  return `ip:${clientIp(request)}`;
}

/**
 * The suspicious-activity monitor: attempts per action and address; at the 10th within 15
 * minutes it logs SUSPICIOUS_ACTIVITY_DETECTED and denies the action.
 */
export async function monitorSuspicious(request: Request, action: string, userId?: string | null): Promise<LimitResult> {
  const scope = ipScope(request);
  const suspicious = (await getLimits()).suspicious;
  const result = await consume(`suspicious:${action}`, scope, suspicious);
  const reachedNow = result.allowed && result.count >= suspicious.maxAttempts;
  if (!result.allowed || reachedNow) {
    if (reachedNow || result.count === suspicious.maxAttempts) {
      await audit({
        eventType: "SUSPICIOUS_ACTIVITY_DETECTED",
        severity: "high",
        userId: userId ?? null,
        request,
        details: { action, attempts: result.count, window_ms: suspicious.windowMs },
      });
    }
    return { ...result, allowed: false };
  }
  return result;
}

export function minutesOf(limit: Limit): number {
  return Math.round(limit.windowMs / 60_000);
}

/** The spec's local-limit message, minutes taken from the window. */
export function tooManyAttempts(limit: Limit) {
  return { title: "Too many attempts", description: `Please wait ${minutesOf(limit)} minutes before trying again.` };
}

/** 429 for a form action: the message travels as the form's error. */
export function tooManyAttemptsResponse(limit: Limit, retryAfterSeconds: number) {
  return data(
    { ok: false as const, toast: tooManyAttempts(limit), errors: {} as Record<string, string> },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/** 429 for resource routes and sockets: 'Rate limit exceeded' / 'Please wait before trying again.' */
export function rateLimitExceeded(retryAfterSeconds: number): Response {
  return Response.json(
    { error: "Rate limit exceeded", message: "Please wait before trying again." },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

export async function logRateLimitHit(request: Request, bucket: string, userId?: string | null) {
  await audit({ eventType: "RATE_LIMIT_EXCEEDED", severity: "medium", userId, request, details: { bucket } });
}
