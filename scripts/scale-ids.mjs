// The ids of the scale state's creators (scripts/scale-state.mjs) and of the generated revenue
// report's channels and videos (scripts/gen-revenue-report.mjs): one place, so that the report's rows
// match the filled channels and the generator can predict who each channel's revenue goes to.
// Creator i (0-based) is user `scaleUserId(i)` (UUID-shaped; sorted as i is, which is the order the
// import rounds people in), with one channel `scaleChannelId(i)` (24 characters, "UC…" as YouTube's).

const hex = (n, width) => n.toString(16).padStart(width, "0");
const dec = (n, width) => String(n).padStart(width, "0");

export const SCALE_USER_PREFIX = "00000000-5ca1-4000-8000-";
export const scaleUserId = (i) => `${SCALE_USER_PREFIX}${hex(i, 12)}`;
export const scaleChannelRowId = (i) => `00000000-5ca1-4000-9000-${hex(i, 12)}`;
export const scaleChannelId = (i) => `UCscale${dec(i, 17)}`;
export const scaleCreatorId = (i) => `SC${dec(i, 7)}`;
export const scaleEmail = (i) => `scale${i}@creators.test`;
/** YouTube video ids are 11 characters: "s", the creator in base 36 (6), the video (4). */
export const scaleVideoId = (i, v) => `s${i.toString(36).padStart(6, "0")}${dec(v, 4)}`;
/** The creator's Stripe Express account at the stand-in (app/dev/dev-stripe.server.ts: acct_[A-Za-z0-9]+). */
export const scaleStripeAccount = (i) => `acct_scale${dec(i, 7)}`;

/** A small deterministic generator (mulberry32): the same seed gives the same state and the same report. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** YYYY-MM of `monthsBack` months before the month of `date` (UTC). */
export function monthBefore(date, monthsBack) {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - monthsBack, 1));
  return d.toISOString().slice(0, 7);
}
