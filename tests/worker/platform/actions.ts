// The inventory of every route action (app/routes/**, URLs from app/routes.ts), each intent with
// a valid form body, the guard in front of it, and the world the action and authorization
// matrices run in (the 9 kinds of user, a target user and agency, an agency with sign-up pages).
import { env } from "cloudflare:workers";
import { CREATOR_SHARE_PERCENT, GENERIC_LIMIT, PAYOUT_DAY_OF_MONTH, SIGNUP_LIMIT, SUSPICIOUS_LIMIT } from "~/lib/constants";
import { campaignFields } from "../../factories/campaigns";
import { ALL_KINDS, createUser, signInAs, type TestUser, type UserKind } from "../../factories/users";
import { fetchApp, ORIGIN } from "../helpers";
import { PNG_1X1 } from "../admin-agency-helpers";

export type Kind = "anonymous" | UserKind;

/** An unsubscribe link that is not signed by us (issue 28): every kind gets 400 and nothing changes. */
const FORGED_UNSUBSCRIBE = `/email/unsubscribe?e=bm90LWEtbGluaw&c=news&t=${"0".repeat(64)}`;
export const KINDS: Kind[] = ["anonymous", ...ALL_KINDS];

// ---- Guards: what each kind gets from the guard in front of an action ------------------------

/** The kind reaches the action (the domain decides what happens). */
export const ALLOWED = "allowed";
const AUTH = "→/auth";
const PENDING = "→/pending-approval";
const DASH = "→/dashboard";
const NO_AGENCY = "→/agency-application-signup";

export type Guard =
  | "public"
  | "signed-in"
  | "approved"
  | "partner"
  | "admin"
  | "agency"
  | "api"
  | "api-approved"
  | "api-admin"
  | "not-found"
  | "pending-deletion"
  | "unfinished-sign-up";

/** Outcome per kind, as `outcome()` reports it: "→/path" for a redirect, else the status. */
// biome-ignore format: one line per kind of guard reads as a table
export const GUARDS: Record<Guard, Record<Kind, string>> = {
  // No guard: sign-in, sign-up, password reset, applications, recovery, CSP reports.
  public: { anonymous: ALLOWED, pending: ALLOWED, rejected: ALLOWED, banned: ALLOWED, creator: ALLOWED, clipper: ALLOWED, partner: ALLOWED, agency: ALLOWED, admin: ALLOWED },
  // requireUser (settings, profile).
  "signed-in": { anonymous: AUTH, pending: ALLOWED, rejected: ALLOWED, banned: AUTH, creator: ALLOWED, clipper: ALLOWED, partner: ALLOWED, agency: ALLOWED, admin: ALLOWED },
  // requireApprovedUser (channels).
  approved: { anonymous: AUTH, pending: PENDING, rejected: PENDING, banned: AUTH, creator: ALLOWED, clipper: ALLOWED, partner: ALLOWED, agency: ALLOWED, admin: ALLOWED },
  // requireMusicPartner (music submissions): approved partners only, admins included in the refusal (docs/decisions/0070).
  partner: { anonymous: AUTH, pending: PENDING, rejected: PENDING, banned: AUTH, creator: DASH, clipper: DASH, partner: ALLOWED, agency: DASH, admin: DASH },
  // requireAdmin: 'Authentication Required' → /auth, 'Account banned' → /auth, 'Access Denied' → /dashboard.
  admin: { anonymous: AUTH, pending: DASH, rejected: DASH, banned: AUTH, creator: DASH, clipper: DASH, partner: DASH, agency: DASH, admin: ALLOWED },
  // requireAgencyAccess: an approved, active agency (admins always).
  agency: { anonymous: AUTH, pending: NO_AGENCY, rejected: NO_AGENCY, banned: AUTH, creator: NO_AGENCY, clipper: NO_AGENCY, partner: NO_AGENCY, agency: ALLOWED, admin: ALLOWED },
  // requireApiUser (resource routes): 401 JSON instead of a redirect.
  api: { anonymous: "401", pending: ALLOWED, rejected: ALLOWED, banned: "401", creator: ALLOWED, clipper: ALLOWED, partner: ALLOWED, agency: ALLOWED, admin: ALLOWED },
  // requireApiUser({ approved: true }) (the chat API): 401 JSON without a session, 403 JSON without approval.
  "api-approved": { anonymous: "401", pending: "403", rejected: "403", banned: "401", creator: ALLOWED, clipper: ALLOWED, partner: ALLOWED, agency: ALLOWED, admin: ALLOWED },
  // requireApiUser({ admin: true }).
  "api-admin": { anonymous: "401", pending: "403", rejected: "403", banned: "401", creator: "403", clipper: "403", partner: "403", agency: "403", admin: ALLOWED },
  // requirePendingDeletion (/account-deletion, issue 28): only an account in its deletion grace period; the others go on.
  "pending-deletion": { anonymous: AUTH, pending: DASH, rejected: DASH, banned: AUTH, creator: DASH, clipper: DASH, partner: DASH, agency: DASH, admin: DASH },
  // requireUnfinishedSignUp (/auth/finish-sign-up, docs/decisions/0324): only a new Google account without its sign-up details.
  "unfinished-sign-up": { anonymous: AUTH, pending: DASH, rejected: DASH, banned: AUTH, creator: DASH, clipper: DASH, partner: DASH, agency: DASH, admin: DASH },
  // The catch-all route: a POST to an address that is no page.
  "not-found": { anonymous: "404", pending: "404", rejected: "404", banned: "404", creator: "404", clipper: "404", partner: "404", agency: "404", admin: "404" },
};

/** The toast title a refused kind reads on an admin action. */
export const ADMIN_REFUSAL_TOAST: Partial<Record<Kind, string>> = {
  anonymous: "Authentication Required",
  banned: "Account banned",
  pending: "Access Denied",
  rejected: "Access Denied",
  creator: "Access Denied",
  clipper: "Access Denied",
  partner: "Access Denied",
  agency: "Access Denied",
};

/** Audit events a refused request may write (security_audit_log is left out of the fingerprint). */
export const REFUSAL_AUDIT_EVENTS = new Set(["admin_access_denied", "unauthorized_access_attempt", "agency_access_denied"]);

// ---- The world ---------------------------------------------------------------------------------

export const AGENCY_SLUG = "matrix-agency";

export type World = {
  users: Record<UserKind, TestUser>;
  /** A pending user outside the matrix: the object of the admin's user actions. */
  target: TestUser;
  /** A pending agency owned by `target`: the object of the admin's agency actions. */
  targetAgencyId: string;
  /** A user the agency manager adds as a manager. */
  helper: TestUser;
};

export async function createWorld(): Promise<World> {
  const users = {} as Record<UserKind, TestUser>;
  for (const kind of ALL_KINDS) users[kind] = await createUser(kind);
  const target = await createUser("pending");
  const helper = await createUser("creator");
  const owner = crypto.randomUUID();
  const targetAgencyId = crypto.randomUUID();
  await env.DB.batch([
    // An approved, active agency (owned by someone outside the matrix) whose sign-up pages resolve.
    env.DB.prepare("INSERT INTO users (id, email) VALUES (?, 'matrix-owner@example.com')").bind(owner),
    env.DB.prepare(
      `INSERT INTO agencies (id, name, slug, contact_email, status, approval_status, user_id)
       VALUES (?, 'Matrix Agency', ?, 'm@example.com', 'active', 'approved', ?)`,
    ).bind(crypto.randomUUID(), AGENCY_SLUG, owner),
    env.DB.prepare(
      `INSERT INTO agencies (id, name, slug, contact_email, status, approval_status, created_by, user_id)
       VALUES (?, 'Target Agency', 'target-agency', ?, 'active', 'pending', ?, ?)`,
    ).bind(targetAgencyId, target.email, target.id, target.id),
    // The banned user starts with no session: each request signs in afresh and the guard ends it.
    env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(users.banned.id),
  ]);
  return { users, target, targetAgencyId, helper };
}

// ---- Requests ----------------------------------------------------------------------------------

export type Body = { fields: Record<string, string>; files?: Record<string, File> };
export type BodyContext = { world: World; kind: Kind; n: number };

export type ActionCase = {
  /** The address posted to (a real seeded value for `:agencySlug`). */
  path: string;
  /** The route module (app/routes/...). */
  module: string;
  guard: Guard;
  intent: string;
  /** The intent the body-parser test uses for this address. */
  main?: true;
  /** A resource route: no `.data` variant. */
  resource?: true;
  /** Reads form fields (false: sign-out, the 404 route and the CSP report endpoint). */
  takesFields: boolean;
  /**
   * "session": a fresh session per request (the action ends it); "user": a fresh user of the kind
   * per request (the action changes the actor's own state, e.g. an agency application).
   */
  fresh?: "session" | "user";
  body: (ctx: BodyContext) => Body;
  /** A body that is not a form (the CSP report endpoint reads the browser's JSON report). */
  raw?: { body: string; contentType: string };
};

let ipCounter = 0;
/** A fresh connecting address per request, so no rate limit of one case touches another. */
export function freshIp(): string {
  ipCounter += 1;
  return `203.0.${100 + (Math.floor(ipCounter / 250) % 100)}.${(ipCounter % 250) + 1}`;
}

const png = (name: string) => new File([PNG_1X1], name, { type: "image/png" });

/** A 1-second silent WAV (8 kHz, 8-bit mono): the smallest real track a partner can submit. */
export function tinyWav(seconds = 1, name = "track.wav"): File {
  const rate = 8000;
  const samples = rate * seconds;
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const text = (o: number, t: string) => {
    for (let i = 0; i < t.length; i++) view.setUint8(o + i, t.charCodeAt(i));
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + samples, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  text(36, "data");
  view.setUint32(40, samples, true);
  bytes.fill(128, 44);
  return new File([bytes], name, { type: "audio/wav" });
}

const musicSubmission = (): Body => ({
  fields: {
    submissionKey: crypto.randomUUID(),
    title: "Matrix Track",
    artist: "Matrix Band",
    genre: "Pop",
    mood: "Happy",
    bpm: "120",
    tags: "matrix",
    rights: "on",
  },
  files: { audio: tinyWav(), cover: png("cover.png") },
});
const musicReview =
  (intent: string, extra: Record<string, string> = {}) =>
  (): Body => ({ fields: { intent, trackId: uuid(), ...extra } });

const PASSWORD = "Sup3r$ecret!pass";
const uuid = () => crypto.randomUUID();
/** A 64-byte MP4 (an 'ftyp' box, then zeros): the smallest source video the clipping upload accepts. */
const matrixMp4 = () => {
  const b = new Uint8Array(64);
  b.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom")]);
  return new File([b], "part", { type: "application/octet-stream" });
};

const signIn = ({ n }: BodyContext): Body => ({
  fields: { intent: "signin", email: `nobody-${n}@example.com`, password: "Wrong#Passw0rd" },
});
const signUp = ({ n }: BodyContext): Body => ({
  fields: {
    intent: "signup",
    fullName: "Matrix Signup",
    email: `signup-${n}@example.com`,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    channelUrl: "https://www.youtube.com/@matrixsignup",
    subscribers: "1200",
    monthlyViews: "34000",
    acceptTerms: "on",
  },
});
const musicSignUp = ({ n }: BodyContext): Body => ({
  fields: {
    fullName: "Matrix Artist",
    email: `artist-${n}@example.com`,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    artistName: "The Matrix Band",
    catalogueUrl: "https://open.spotify.com/artist/matrix",
    acceptTerms: "on",
  },
});
const application = ({ n }: BodyContext): Body => ({
  fields: {
    agencyName: `Applicant Agency ${n}`,
    slug: `applicant-agency-${n}`,
    contactEmail: `agency-${n}@example.com`,
    description: "We manage creators.",
    // The account part, read only when the applicant is signed out.
    fullName: "Agency Applicant",
    email: `applicant-${n}@example.com`,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    acceptTerms: "on",
  },
});
const broadcast = ({ world }: BodyContext): Body => ({
  fields: { title: "Matrix broadcast", content: "Hello from the matrix.", audience: "users", emails: world.target.email },
});
const userAction =
  (intent: string, reason = false) =>
  ({ world }: BodyContext): Body => ({
    fields: { intent, userId: world.target.id, confirm: "yes", ...(reason ? { reason: "Matrix reason" } : {}) },
  });
const agencyReview =
  (intent: string, reason = false) =>
  ({ world }: BodyContext): Body => ({
    fields: { intent, agencyId: world.targetAgencyId, confirm: "yes", ...(reason ? { reason: "Matrix reason" } : {}) },
  });
/** The agency dashboard's forms always name the agency: the agency manager's own. */
const agencyForm =
  (intent: string, extra: (ctx: BodyContext) => Record<string, string> = () => ({})) =>
  (ctx: BodyContext): Body => ({
    fields: { intent, agencyId: ctx.world.users.agency.agencyId!, ...extra(ctx) },
  });

const OAUTH_AUTHORIZE =
  "/dev/oauth/authorize?client_id=shortbeat-local&redirect_uri=https%3A%2F%2Fshortbeat.test%2Fauth%2Fgoogle%2Fcallback" +
  "&response_type=code&code_challenge=matrixchallenge&code_challenge_method=S256&state=matrix-state";

/** One route module's action served at several paths: the same case at each. */
const atPaths = (paths: string[], action: Omit<ActionCase, "path">): ActionCase[] => paths.map((path) => ({ path, ...action }));

export const ACTIONS: ActionCase[] = [
  // ---- Accounts ----
  { path: "/auth", module: "_auth/auth.tsx", guard: "public", intent: "signin", main: true, takesFields: true, body: signIn },
  { path: "/auth", module: "_auth/auth.tsx", guard: "public", intent: "signup", takesFields: true, body: signUp },
  {
    path: "/auth/sign-out",
    module: "_auth/sign-out.ts",
    guard: "public",
    intent: "sign-out",
    resource: true,
    takesFields: false,
    fresh: "session",
    body: () => ({ fields: {} }),
  },
  {
    path: "/auth/forgot-password",
    module: "_auth/forgot-password.tsx",
    guard: "public",
    intent: "request",
    main: true,
    takesFields: true,
    body: ({ n }) => ({ fields: { email: `reset-${n}@example.com` } }),
  },
  {
    path: "/auth/reset-password",
    module: "_auth/reset-password.tsx",
    guard: "public",
    intent: "reset",
    main: true,
    takesFields: true,
    body: () => ({ fields: { token: "not-a-real-reset-token-0123456789", password: PASSWORD, confirmPassword: PASSWORD } }),
  },
  {
    path: "/auth/verify-email",
    module: "_auth/verify-email.tsx",
    guard: "public",
    intent: "verify",
    main: true,
    takesFields: true,
    body: () => ({ fields: { token: "not-a-real-verification-token-0123" } }),
  },
  {
    // One-click unsubscribe (issue 28): a link that is not signed changes nothing (400).
    path: FORGED_UNSUBSCRIBE,
    module: "_auth/email-unsubscribe.tsx",
    guard: "public",
    intent: "one-click",
    main: true,
    takesFields: true,
    body: () => ({ fields: { "List-Unsubscribe": "One-Click" } }),
  },
  {
    // Keeping an account in its deletion grace period (issue 28): no kind of the matrix has one pending.
    path: "/account-deletion",
    module: "_auth/account-deletion.tsx",
    guard: "pending-deletion",
    intent: "keep",
    main: true,
    takesFields: false,
    body: () => ({ fields: {} }),
  },
  {
    // Finishing a Google sign-up (docs/decisions/0324): no kind of the matrix has one unfinished; its
    // bodies (415/400) are checked with such an account in tests/worker/accounts/finish-sign-up.test.ts.
    path: "/auth/finish-sign-up",
    module: "_auth/finish-sign-up.tsx",
    guard: "unfinished-sign-up",
    intent: "finish",
    main: true,
    takesFields: false,
    body: () => ({ fields: { fullName: "Matrix", channelUrl: "https://www.youtube.com/@matrix", subscribers: "1", monthlyViews: "1", acceptTerms: "on" } }),
  },
  {
    path: "/auth/google",
    module: "_auth/google.ts",
    guard: "public",
    intent: "begin",
    main: true,
    resource: true,
    takesFields: true,
    body: () => ({ fields: { ref: "MATRIX", redirectTo: "/dashboard" } }),
  },
  {
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "sign-out-others",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "sign-out-others" } }),
  },
  {
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "sign-out-session",
    takesFields: true,
    body: () => ({ fields: { intent: "sign-out-session", session: "0123456789ab" } }),
  },
  {
    // A fresh user per request: sending is limited per user (3 an hour), and it sets the number.
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "phone-send",
    takesFields: true,
    fresh: "user",
    body: () => ({ fields: { intent: "phone-send", phone: `+354${String(Math.floor(Math.random() * 9_000_000) + 1_000_000)}` } }),
  },
  {
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "phone-verify",
    takesFields: true,
    body: () => ({ fields: { intent: "phone-verify", code: "000000" } }),
  },
  {
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "phone-remove",
    takesFields: true,
    body: () => ({ fields: { intent: "phone-remove" } }),
  },
  {
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "change-password",
    takesFields: true,
    body: () => ({
      fields: { intent: "change-password", currentPassword: "Wrong#Passw0rd", password: PASSWORD, confirmPassword: PASSWORD },
    }),
  },
  {
    // A Google-only account's first password (docs/decisions/0325): the matrix's users have one, so it is refused (409).
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "set-password",
    takesFields: true,
    body: () => ({ fields: { intent: "set-password", password: PASSWORD, confirmPassword: PASSWORD } }),
  },
  {
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "email-updates",
    takesFields: true,
    body: () => ({ fields: { intent: "email-updates", news: "on" } }),
  },
  {
    // The wrong password: refused for every kind that reaches it, nothing changes.
    path: "/settings",
    module: "_app/settings.tsx",
    guard: "signed-in",
    intent: "delete-account",
    takesFields: true,
    body: () => ({ fields: { intent: "delete-account", password: "Wrong#Passw0rd", confirm: "yes" } }),
  },
  {
    path: "/profile",
    module: "_app/profile.tsx",
    guard: "signed-in",
    intent: "name",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "name", fullName: "Matrix Name" } }),
  },
  {
    path: "/profile",
    module: "_app/profile.tsx",
    guard: "signed-in",
    intent: "avatar",
    takesFields: true,
    body: () => ({ fields: { intent: "avatar" }, files: { avatar: png("avatar.png") } }),
  },

  // ---- Campaigns (issue 15): the creator's join and submit (an unknown campaign: not found, nothing written) ----
  {
    path: "/campaigns",
    module: "_app/campaigns.tsx",
    guard: "approved",
    intent: "join",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "join", campaignId: uuid(), accept: "on" } }),
  },
  {
    path: "/campaigns",
    module: "_app/campaigns.tsx",
    guard: "approved",
    intent: "submit",
    takesFields: true,
    body: ({ n }) => ({
      fields: { intent: "submit", campaignId: uuid(), url: `https://www.tiktok.com/@matrix/video/79000000000000${String(n).padStart(5, "0")}` },
    }),
  },
  {
    // The public campaign page's join (an unknown slug: not found, nothing written).
    path: "/campaigns/matrix-no-such-campaign",
    module: "_public/campaign.tsx",
    guard: "approved",
    intent: "join",
    takesFields: true,
    body: () => ({ fields: { intent: "join", campaignId: uuid(), accept: "on" } }),
  },
  // ---- Clipping (issue 16): unknown ids are not found, nothing written ----
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "accept-invite",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "accept-invite", code: "NOSUCHCODE", acceptClipperAgreement: "on" } }),
  },
  {
    // Invitations (issue 27, docs/decisions/0205). An approved caller makes one (a row); others nothing.
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "create-invitation",
    takesFields: true,
    body: () => ({ fields: { intent: "create-invitation", email: "" } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "withdraw-invitation",
    takesFields: true,
    body: () => ({ fields: { intent: "withdraw-invitation", invitationId: uuid() } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "approve-clipper",
    takesFields: true,
    body: () => ({ fields: { intent: "approve-clipper", invitationId: uuid() } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "decline-clipper",
    takesFields: true,
    body: () => ({ fields: { intent: "decline-clipper", invitationId: uuid() } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "dismiss-invite",
    takesFields: true,
    body: () => ({ fields: { intent: "dismiss-invite" } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "revoke",
    takesFields: true,
    body: () => ({ fields: { intent: "revoke", linkId: uuid() } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "rename",
    takesFields: true,
    body: () => ({ fields: { intent: "rename", sourceId: uuid(), name: "Matrix source" } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "delete",
    takesFields: true,
    body: () => ({ fields: { intent: "delete", sourceId: uuid() } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "submit-clip",
    takesFields: true,
    body: () => ({
      fields: { intent: "submit-clip", linkId: uuid(), platform: "youtube_shorts", url: "https://www.youtube.com/shorts/MatrixClip1", sourceId: uuid() },
    }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "review-clip",
    takesFields: true,
    body: () => ({ fields: { intent: "review-clip", clipId: uuid(), decision: "approve" } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "request-removal",
    takesFields: true,
    body: () => ({ fields: { intent: "request-removal", clipId: uuid() } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "mark-removed",
    takesFields: true,
    body: () => ({ fields: { intent: "mark-removed", clipId: uuid() } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "request-split",
    takesFields: true,
    body: () => ({ fields: { intent: "request-split", linkId: uuid(), sharePercent: "80" } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "answer-split",
    takesFields: true,
    body: () => ({ fields: { intent: "answer-split", requestId: uuid(), decision: "approve" } }),
  },
  {
    path: "/clipping",
    module: "_app/clipping.tsx",
    guard: "approved",
    intent: "set-views",
    takesFields: true,
    body: () => ({ fields: { intent: "set-views", clipId: uuid(), views: "100" } }),
  },
  {
    path: "/clipping/upload",
    module: "_app/clipping-upload.ts",
    guard: "api-approved",
    intent: "start",
    main: true,
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "start", name: "matrix.mp4", size: "64" }, files: { chunk: matrixMp4() } }),
  },
  {
    path: "/clipping/upload",
    module: "_app/clipping-upload.ts",
    guard: "api-approved",
    intent: "part",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "part", sourceId: uuid(), partNumber: "2" }, files: { chunk: matrixMp4() } }),
  },
  {
    path: "/clipping/upload",
    module: "_app/clipping-upload.ts",
    guard: "api-approved",
    intent: "complete",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "complete", sourceId: uuid() } }),
  },
  {
    path: "/clipping/upload",
    module: "_app/clipping-upload.ts",
    guard: "api-approved",
    intent: "abort",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "abort", sourceId: uuid() } }),
  },
  // ---- Channels ----
  {
    path: "/channels",
    module: "_app/channels.tsx",
    guard: "approved",
    intent: "submit",
    main: true,
    takesFields: true,
    body: ({ n }) => ({
      fields: {
        intent: "submit",
        channelName: `Matrix Channel ${n}`,
        channelUrl: `https://www.youtube.com/@matrix${n}`,
        subscriberCount: "1000",
        avgMonthlyViews: "5000",
      },
    }),
  },
  {
    path: "/channels",
    module: "_app/channels.tsx",
    guard: "approved",
    intent: "connect",
    takesFields: true,
    body: () => ({ fields: { intent: "connect" } }),
  },
  {
    path: "/channels",
    module: "_app/channels.tsx",
    guard: "approved",
    intent: "refresh",
    takesFields: true,
    body: () => ({ fields: { intent: "refresh", channelId: uuid() } }),
  },
  {
    path: "/channels",
    module: "_app/channels.tsx",
    guard: "approved",
    intent: "disconnect",
    takesFields: true,
    body: () => ({ fields: { intent: "disconnect", channelId: uuid() } }),
  },
  {
    path: "/channels",
    module: "_app/channels.tsx",
    guard: "approved",
    intent: "submit-verification",
    takesFields: true,
    body: () => ({ fields: { intent: "submit-verification", id: uuid() } }),
  },
  {
    // The TikTok / Instagram handles (issue 30, decision 0265): a fresh handle each run.
    path: "/channels",
    module: "_app/channels.tsx",
    guard: "approved",
    intent: "handles",
    takesFields: true,
    body: ({ n }) => ({ fields: { intent: "handles", tiktok: `matrix_${n}`, instagram: "" } }),
  },

  // ---- Music ----
  {
    path: "/music/submit",
    module: "_app/music-submit.tsx",
    guard: "partner",
    intent: "submit",
    main: true,
    takesFields: true,
    body: musicSubmission,
  },
  {
    // A rejected track sent back for review (issue 30): an unknown track is 404 for the partners let through.
    path: "/music/submissions/00000000-0000-4000-8000-000000000000/resubmit",
    module: "_app/music-resubmit.tsx",
    guard: "partner",
    intent: "resubmit",
    takesFields: true,
    body: musicSubmission,
  },
  {
    // Withdrawing a submission in review (issue 42 §5, decision 0323): an unknown track is 404 for the partners let through.
    path: "/music/submissions",
    module: "_app/music-submissions.tsx",
    guard: "partner",
    intent: "withdraw",
    takesFields: true,
    body: () => ({ fields: { intent: "withdraw", id: uuid() } }),
  },
  {
    // 'Use this track' (the library's rows post here): an unknown track is 404 for the kinds let
    // through; an unapproved attempt is audited (unauthorized_access_attempt) and sent to /pending-approval.
    path: "/music/licences",
    module: "_app/music-licences.tsx",
    guard: "approved",
    intent: "use",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "use", trackId: uuid() } }),
  },

  // ---- Admin console ----
  {
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "approve",
    main: true,
    takesFields: true,
    body: userAction("approve"),
  },
  {
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "reject",
    takesFields: true,
    body: userAction("reject", true),
  },
  { path: "/admin", module: "admin/users.tsx", guard: "admin", intent: "ban", takesFields: true, body: userAction("ban", true) },
  {
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "unban",
    takesFields: true,
    body: userAction("unban", true),
  },
  {
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "toggle_music_partner",
    takesFields: true,
    body: userAction("toggle_music_partner"),
  },
  {
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "grant_admin",
    takesFields: true,
    body: userAction("grant_admin"),
  },
  {
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "revoke_admin",
    takesFields: true,
    body: userAction("revoke_admin"),
  },
  {
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "end_sessions",
    takesFields: true,
    body: userAction("end_sessions"),
  },
  {
    // Issue 28: an unknown person (404 for the admin), so that the matrix's target is not frozen.
    path: "/admin",
    module: "admin/users.tsx",
    guard: "admin",
    intent: "delete_account",
    takesFields: true,
    body: () => ({ fields: { intent: "delete_account", userId: crypto.randomUUID(), confirm: "yes" } }),
  },
  {
    path: "/admin/agencies",
    module: "admin/agencies.tsx",
    guard: "admin",
    intent: "approve",
    main: true,
    takesFields: true,
    body: agencyReview("approve"),
  },
  {
    path: "/admin/agencies",
    module: "admin/agencies.tsx",
    guard: "admin",
    intent: "reject",
    takesFields: true,
    body: agencyReview("reject", true),
  },
  {
    path: "/admin/agencies",
    module: "admin/agencies.tsx",
    guard: "admin",
    intent: "deactivate",
    takesFields: true,
    body: agencyReview("deactivate"),
  },
  {
    path: "/admin/agencies",
    module: "admin/agencies.tsx",
    guard: "admin",
    intent: "activate",
    takesFields: true,
    body: agencyReview("activate"),
  },
  {
    path: "/admin/settings",
    module: "admin/settings.tsx",
    guard: "admin",
    intent: "save",
    main: true,
    takesFields: true,
    // The values in force (defaults): saving them changes no limit another case relies on.
    body: () => ({
      fields: {
        creatorSharePercent: String(CREATOR_SHARE_PERCENT),
        payoutDayOfMonth: String(PAYOUT_DAY_OF_MONTH),
        signupLimitPerHour: String(SIGNUP_LIMIT.maxAttempts),
        genericLimitPer15Min: String(GENERIC_LIMIT.maxAttempts),
        suspiciousLimitPer15Min: String(SUSPICIOUS_LIMIT.maxAttempts),
      },
    }),
  },
  {
    // Growth (issue 18): 'notify' an inactive user; the matrix's target is not inactive for a year, so nobody is notified.
    path: "/user-retention",
    module: "admin/user-retention.tsx",
    guard: "admin",
    intent: "notify",
    main: true,
    takesFields: true,
    body: ({ world }) => ({ fields: { intent: "notify", inactiveDays: "365", userIds: world.target.id } }),
  },
  {
    // 'Refresh figures now': the daily job's retention work (snapshot, completed weeks), now.
    path: "/user-retention",
    module: "admin/user-retention.tsx",
    guard: "admin",
    intent: "refresh",
    takesFields: true,
    body: () => ({ fields: { intent: "refresh" } }),
  },
  {
    path: "/admin/verifications",
    module: "admin/verifications.tsx",
    guard: "admin",
    intent: "verify",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "verify", id: uuid() } }),
  },
  {
    path: "/admin/verifications",
    module: "admin/verifications.tsx",
    guard: "admin",
    intent: "reject",
    takesFields: true,
    body: () => ({ fields: { intent: "reject", id: uuid(), reason: "Matrix reason" } }),
  },
  {
    path: "/admin/music",
    module: "admin/music.tsx",
    guard: "admin",
    intent: "approve",
    main: true,
    takesFields: true,
    body: musicReview("approve"),
  },
  {
    path: "/admin/music",
    module: "admin/music.tsx",
    guard: "admin",
    intent: "reject",
    takesFields: true,
    body: musicReview("reject", { note: "Matrix note" }),
  },
  {
    path: "/admin/music",
    module: "admin/music.tsx",
    guard: "admin",
    intent: "withdraw",
    takesFields: true,
    body: musicReview("withdraw", { reason: "Matrix reason" }),
  },
  // ---- Revenue reports of any size (issue 45 §1, decision 0334): parts into R2, admins only ----
  {
    path: "/admin/payments/report",
    module: "admin/payments-report.ts",
    guard: "api-admin",
    intent: "start",
    main: true,
    resource: true,
    takesFields: true,
    body: ({ n }) => ({
      fields: { intent: "start", month: "2019-01", name: `matrix-${n}.csv`, size: "52" },
      files: { chunk: new File(["month,channel_id,net_revenue,currency\r\n2019-01,UCx,1"], `matrix-${n}.csv`, { type: "text/csv" }) },
    }),
  },
  ...(["part", "complete", "abort"] as const).map(
    (intent): ActionCase => ({
      path: "/admin/payments/report",
      module: "admin/payments-report.ts",
      guard: "api-admin",
      intent,
      resource: true,
      takesFields: true,
      body: () => ({
        fields: { intent, reportId: uuid(), ...(intent === "part" ? { partNumber: "2" } : {}) },
        ...(intent === "part" ? { files: { chunk: new File(["x"], "x.csv") } } : {}),
      }),
    }),
  ),
  // ---- Payments (issue 14): the admin's revenue import, months and payouts ----
  {
    // A file whose only row names no known channel: the preview reports it and writes nothing.
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "preview",
    main: true,
    takesFields: true,
    body: () => ({
      fields: { intent: "preview", month: "2020-01" },
      files: { file: new File(["month,channel_id,net_revenue,currency\n2020-01,UCmatrixNobody,1.00,USD\n"], "revenue.csv", { type: "text/csv" }) },
    }),
  },
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "commit",
    takesFields: true,
    body: () => ({ fields: { intent: "commit", importId: uuid(), replaces: "" } }),
  },
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "discard",
    takesFields: true,
    body: () => ({ fields: { intent: "discard", importId: uuid() } }),
  },
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "funds_received",
    takesFields: true,
    body: () => ({ fields: { intent: "funds_received", month: "2030-02" } }),
  },
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "finalize",
    takesFields: true,
    body: () => ({ fields: { intent: "finalize", month: "2030-02" } }),
  },
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "mark_paid",
    takesFields: true,
    body: () => ({ fields: { intent: "mark_paid", payoutId: uuid(), reference: "MATRIX-REF" } }),
  },
  {
    // A run with no payouts: not found, nothing written.
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "mark_batch_paid",
    takesFields: true,
    body: () => ({ fields: { intent: "mark_batch_paid", batch: "2030-03", reference: "MATRIX-REF" } }),
  },
  // The admin's Agreements (issue 14, phase 2): a person no account has → 400, nothing written.
  ...(["offer_share", "terminate", "hold", "release_hold"] as const).map(
    (intent): ActionCase => ({
      path: "/admin/payments",
      module: "admin/payments.tsx",
      guard: "admin",
      intent,
      takesFields: true,
      body: () => ({ fields: { intent, person: "matrix-nobody@example.com", sharePercent: "75", reason: "Matrix reason" } }),
    }),
  ),
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "withdraw_offer",
    takesFields: true,
    body: () => ({ fields: { intent: "withdraw_offer", offerId: uuid() } }),
  },
  // Issue 29: the column-mapping step (an upload that is not waiting: 400), adjustments and how a
  // person is paid (a person no account has: 400), sending waiting transfers (nothing waits: 409).
  ...(["map", "remap"] as const).map(
    (intent): ActionCase => ({
      path: "/admin/payments",
      module: "admin/payments.tsx",
      guard: "admin",
      intent,
      takesFields: true,
      body: () => ({ fields: { intent, month: "2020-02", uploadId: uuid(), period: "0", amount: "1", person: "UCmatrixNobody" } }),
    }),
  ),
  ...(["adjust", "pay_outside", "pay_through_stripe"] as const).map(
    (intent): ActionCase => ({
      path: "/admin/payments",
      module: "admin/payments.tsx",
      guard: "admin",
      intent,
      takesFields: true,
      body: () => ({
        fields: { intent, token: uuid(), person: "matrix-nobody@example.com", month: "2020-02", direction: "credit", amount: "1.00", reason: "Matrix reason" },
      }),
    }),
  ),
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "send_transfers",
    takesFields: true,
    body: () => ({ fields: { intent: "send_transfers" } }),
  },
  {
    path: "/admin/payments",
    module: "admin/payments.tsx",
    guard: "admin",
    intent: "retry_payouts",
    takesFields: true,
    body: () => ({ fields: { intent: "retry_payouts", batch: "2020-02" } }),
  },
  // The creator's own agreement on /payments.
  {
    path: "/payments",
    module: "_app/payments.tsx",
    guard: "approved",
    intent: "give_notice",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "give_notice", confirm: "yes" } }),
  },
  {
    path: "/payments",
    module: "_app/payments.tsx",
    guard: "approved",
    intent: "withdraw_notice",
    takesFields: true,
    body: () => ({ fields: { intent: "withdraw_notice" } }),
  },
  {
    path: "/payments",
    module: "_app/payments.tsx",
    guard: "approved",
    intent: "accept_offer",
    takesFields: true,
    body: () => ({ fields: { intent: "accept_offer", offerId: uuid(), confirm: "yes" } }),
  },
  {
    path: "/payments",
    module: "_app/payments.tsx",
    guard: "approved",
    intent: "decline_offer",
    takesFields: true,
    body: () => ({ fields: { intent: "decline_offer", offerId: uuid() } }),
  },
  // The payout account (issue 29): the set-up goes to the Stripe stand-in; the dashboard needs an enabled account (409).
  {
    path: "/payments",
    module: "_app/payments.tsx",
    guard: "approved",
    intent: "connect_payouts",
    takesFields: true,
    body: () => ({ fields: { intent: "connect_payouts", country: "US" } }),
  },
  {
    path: "/payments",
    module: "_app/payments.tsx",
    guard: "approved",
    intent: "payout_dashboard",
    takesFields: true,
    body: () => ({ fields: { intent: "payout_dashboard" } }),
  },
  // ---- Campaigns (issue 15): the admin console (unknown ids: not found; a create makes a draft only) ----
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "create",
    main: true,
    takesFields: true,
    body: ({ n }) => ({
      fields: campaignFields({ title: `Matrix Campaign ${n}`, slug: `matrix-campaign-${n}-${uuid().slice(0, 6)}` }),
    }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "update",
    takesFields: true,
    body: ({ n }) => ({
      fields: campaignFields({ intent: "update", id: uuid(), title: `Matrix Campaign ${n}`, slug: `matrix-update-${n}` }),
    }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "launch",
    takesFields: true,
    body: () => ({ fields: { intent: "launch", id: uuid() } }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "end",
    takesFields: true,
    body: () => ({ fields: { intent: "end", id: uuid() } }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "settle",
    takesFields: true,
    body: () => ({ fields: { intent: "settle", id: uuid() } }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "funds_received",
    takesFields: true,
    body: () => ({ fields: { intent: "funds_received", id: uuid() } }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "approve",
    takesFields: true,
    body: () => ({ fields: { intent: "approve", submissionId: uuid(), views: "1000" } }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "views",
    takesFields: true,
    body: () => ({ fields: { intent: "views", submissionId: uuid(), views: "1000" } }),
  },
  {
    path: "/admin/campaigns",
    module: "admin/campaigns.tsx",
    guard: "admin",
    intent: "reject",
    takesFields: true,
    body: () => ({ fields: { intent: "reject", submissionId: uuid(), reason: "Matrix reason" } }),
  },
  {
    path: "/admin/broadcast",
    module: "admin/broadcast.tsx",
    guard: "admin",
    intent: "send",
    main: true,
    takesFields: true,
    body: broadcast,
  },

  // ---- Notifications API ----
  {
    path: "/api/notifications",
    module: "api/notifications.ts",
    guard: "api",
    intent: "mark-read",
    main: true,
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "mark-read", id: uuid() } }),
  },
  {
    path: "/api/notifications",
    module: "api/notifications.ts",
    guard: "api",
    intent: "mark-all-read",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "mark-all-read" } }),
  },
  {
    path: "/api/notifications?intent=broadcast",
    module: "api/notifications.ts",
    guard: "api-admin",
    intent: "broadcast",
    main: true,
    resource: true,
    takesFields: true,
    body: broadcast,
  },
  // ---- Thumbnail editor (issue 19): its JSON API, admins only ----
  {
    path: "/ai-thumbnail-editor/api",
    module: "admin/thumbnails-api.ts",
    guard: "api-admin",
    intent: "save-project",
    main: true,
    resource: true,
    takesFields: true,
    body: ({ n }) => ({
      fields: {
        intent: "save-project",
        name: `Matrix project ${n}`,
        document: JSON.stringify({ format: "landscape", background: "#000000", adjust: { brightness: 100, contrast: 100, saturation: 100 }, layers: [] }),
      },
    }),
  },
  {
    // A 1×1 PNG is not the format's size: 400 for an admin, nothing stored.
    path: "/ai-thumbnail-editor/api",
    module: "admin/thumbnails-api.ts",
    guard: "api-admin",
    intent: "export",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "export", name: "Matrix export", format: "landscape" }, files: { file: png("thumb.png") } }),
  },
  {
    path: "/ai-thumbnail-editor/api",
    module: "admin/thumbnails-api.ts",
    guard: "api-admin",
    intent: "send-export",
    resource: true,
    takesFields: true,
    body: ({ world }) => ({ fields: { intent: "send-export", exportId: crypto.randomUUID(), email: world.users.creator.email } }),
  },
  {
    // An empty title: 400 for an admin (with a title and no Workers AI binding it is 503 with the
    // reason, tests/worker/thumbnails; the matrix keeps allowed answers below 500).
    path: "/ai-thumbnail-editor/api",
    module: "admin/thumbnails-api.ts",
    guard: "api-admin",
    intent: "caption-ideas",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "caption-ideas", title: "" } }),
  },
  {
    // An unknown channel: 404 for an admin (decision 0184; tests/worker/thumbnails/sources.test.ts).
    path: "/ai-thumbnail-editor/api",
    module: "admin/thumbnails-api.ts",
    guard: "api-admin",
    intent: "channel-thumbnail",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "channel-thumbnail", channelId: crypto.randomUUID() } }),
  },
  {
    // An empty prompt: 400 for an admin (with one and no Workers AI binding: 503 with the reason).
    path: "/ai-thumbnail-editor/api",
    module: "admin/thumbnails-api.ts",
    guard: "api-admin",
    intent: "generate-background",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "generate-background", prompt: "" } }),
  },
  // ---- Community chat (issue 17): the chat API (sends go to the room's object) and the admin's page ----
  {
    // An unknown room: 404 for everyone the guard lets through, nothing written.
    path: "/api/chat",
    module: "api/chat.ts",
    guard: "api-approved",
    intent: "send",
    main: true,
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "send", roomId: uuid(), body: "Matrix message" } }),
  },
  {
    path: "/api/chat",
    module: "api/chat.ts",
    guard: "api-approved",
    intent: "edit",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "edit", id: uuid(), body: "Matrix edit" } }),
  },
  {
    path: "/api/chat",
    module: "api/chat.ts",
    guard: "api-approved",
    intent: "delete",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "delete", id: uuid() } }),
  },
  {
    path: "/api/chat",
    module: "api/chat.ts",
    guard: "api-approved",
    intent: "read",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { intent: "read", roomId: uuid(), seq: "1" } }),
  },
  {
    // A unique name per request, so that every allowed create writes a new room.
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "create-room",
    main: true,
    takesFields: true,
    body: ({ n }) => ({ fields: { intent: "create-room", name: `Matrix room ${n}`, description: "", kind: "general" } }),
  },
  {
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "update-room",
    takesFields: true,
    body: () => ({ fields: { intent: "update-room", roomId: uuid(), name: "Matrix", description: "", kind: "general" } }),
  },
  {
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "archive-room",
    takesFields: true,
    body: () => ({ fields: { intent: "archive-room", roomId: uuid() } }),
  },
  {
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "restore-room",
    takesFields: true,
    body: () => ({ fields: { intent: "restore-room", roomId: uuid() } }),
  },
  {
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "move-room",
    takesFields: true,
    body: () => ({ fields: { intent: "move-room", roomId: uuid(), direction: "up" } }),
  },
  {
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "delete-message",
    takesFields: true,
    body: () => ({ fields: { intent: "delete-message", id: uuid() } }),
  },
  {
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "mute",
    takesFields: true,
    body: ({ world }) => ({ fields: { intent: "mute", userId: world.target.id, minutes: "15", reason: "Matrix reason" } }),
  },
  {
    path: "/chat-management",
    module: "admin/chat-management.tsx",
    guard: "admin",
    intent: "unmute",
    takesFields: true,
    body: () => ({ fields: { intent: "unmute", muteId: "00000000-0000-4000-8000-00000000abcd" } }),
  },
  {
    // Stripe's webhooks: no session, no Origin; an unsigned body is refused (400), nothing written.
    path: "/api/stripe/webhook",
    module: "api/stripe-webhook.ts",
    guard: "public",
    intent: "webhook",
    resource: true,
    takesFields: false,
    body: () => ({ fields: {} }),
    raw: { body: JSON.stringify({ id: "evt_matrix", type: "account.updated", data: { object: {} } }), contentType: "application/json" },
  },
  {
    path: "/api/csp-report",
    module: "api/csp-report.ts",
    guard: "public",
    intent: "report",
    resource: true,
    takesFields: false,
    body: () => ({ fields: {} }),
    raw: {
      body: JSON.stringify({
        "csp-report": { "blocked-uri": "inline", "violated-directive": "script-src", "document-uri": `${ORIGIN}/admin` },
      }),
      contentType: "application/csp-report",
    },
  },

  // ---- Agencies, sign-up screens, recovery ----
  {
    path: "/admin-recovery",
    module: "agency/admin-recovery.tsx",
    guard: "public",
    intent: "recover",
    main: true,
    takesFields: true,
    body: ({ n }) => ({ fields: { email: `recover-${n}@example.com`, secret: "not-the-recovery-secret" } }),
  },
  ...atPaths(["/agency-application-signup", "/agency/signup"], {
    module: "agency/application-signup.tsx",
    guard: "public",
    intent: "apply",
    main: true,
    takesFields: true,
    fresh: "user",
    body: application,
  }),
  ...atPaths(["/music-signup", `/${AGENCY_SLUG}/music-signup`], {
    module: "agency/music-signup.tsx",
    guard: "public",
    intent: "signup",
    main: true,
    takesFields: true,
    body: musicSignUp,
  }),
  {
    path: `/${AGENCY_SLUG}/signup`,
    module: "agency/agency-creator-signup.tsx",
    guard: "public",
    intent: "signup",
    main: true,
    takesFields: true,
    body: signUp,
  },
  {
    path: `/${AGENCY_SLUG}/signup`,
    module: "agency/agency-creator-signup.tsx",
    guard: "public",
    intent: "signin",
    takesFields: true,
    body: signIn,
  },
  {
    path: "/agency-dashboard",
    module: "agency/agency-dashboard.tsx",
    guard: "agency",
    intent: "update_profile",
    main: true,
    takesFields: true,
    body: agencyForm("update_profile", () => ({
      name: "Matrix Managed Agency",
      contactEmail: "managed@example.com",
      description: "Updated.",
    })),
  },
  {
    path: "/agency-dashboard",
    module: "agency/agency-dashboard.tsx",
    guard: "agency",
    intent: "upload_logo",
    takesFields: true,
    body: (ctx) => ({ ...agencyForm("upload_logo")(ctx), files: { logo: png("logo.png") } }),
  },
  {
    path: "/agency-dashboard",
    module: "agency/agency-dashboard.tsx",
    guard: "agency",
    intent: "create_token",
    takesFields: true,
    body: agencyForm("create_token"),
  },
  {
    path: "/agency-dashboard",
    module: "agency/agency-dashboard.tsx",
    guard: "agency",
    intent: "revoke_token",
    takesFields: true,
    body: agencyForm("revoke_token", () => ({ id: uuid() })),
  },
  {
    path: "/agency-dashboard",
    module: "agency/agency-dashboard.tsx",
    guard: "agency",
    intent: "add_manager",
    takesFields: true,
    body: agencyForm("add_manager", ({ world }) => ({ email: world.helper.email })),
  },
  {
    path: "/agency-dashboard",
    module: "agency/agency-dashboard.tsx",
    guard: "agency",
    intent: "remove_manager",
    takesFields: true,
    body: agencyForm("remove_manager", () => ({ id: uuid() })),
  },
  {
    // Accepting an agency manager invitation: signed in; the module checks the token, the e-mail
    // and the account (an unknown token is a 404 with nothing changed).
    path: "/agency-invitation",
    module: "agency/agency-invitation.tsx",
    guard: "signed-in",
    intent: "accept",
    main: true,
    takesFields: true,
    body: () => ({ fields: { token: "no-such-invitation-token" } }),
  },

  // ---- Everything else: the not-found page answers a POST with 404 ----
  {
    path: "/no-such-page",
    module: "_public/not-found.tsx",
    guard: "not-found",
    intent: "any",
    takesFields: false,
    body: () => ({ fields: {} }),
  },

  // ---- Development tools (DEV_TOOLS=1 in the test build; absent from production) ----
  {
    path: "/dev/factory",
    module: "dev/factory.ts",
    guard: "public",
    intent: "verify-email",
    main: true,
    resource: true,
    takesFields: true,
    body: ({ world }) => ({ fields: { intent: "verify-email", email: world.helper.email } }),
  },
  {
    // A day before the payout day: no run is due, nothing is written.
    path: "/dev/payout-day",
    module: "dev/payout-day.ts",
    guard: "public",
    intent: "run",
    main: true,
    resource: true,
    takesFields: true,
    body: () => ({ fields: { date: "2000-01-01" } }),
  },
  {
    // The bench's start of a revenue report already in R2 (decision 0334): no such object here.
    path: "/dev/revenue-report",
    module: "dev/revenue-report.ts",
    guard: "api-admin",
    intent: "start",
    resource: true,
    takesFields: true,
    body: () => ({ fields: { month: "2019-01", objectKey: "imports/none.csv" } }),
  },
  {
    // The Stripe stand-in's dashboard: the "let transfers through" switch (already through).
    path: "/dev/stripe",
    module: "dev/stripe.tsx",
    guard: "public",
    intent: "refuse_next",
    main: true,
    takesFields: true,
    body: () => ({ fields: { intent: "refuse_next", on: "no" } }),
  },
  {
    // The stand-in's onboarding page for a link that does not exist: 404, nothing written.
    path: "/dev/stripe/onboarding/link_matrix",
    module: "dev/stripe-onboarding.tsx",
    guard: "public",
    intent: "finish",
    takesFields: true,
    body: () => ({ fields: { outcome: "complete" } }),
  },
  {
    path: OAUTH_AUTHORIZE,
    module: "dev/oauth-authorize.tsx",
    guard: "public",
    intent: "choose",
    main: true,
    resource: true,
    takesFields: true,
    body: () => ({ fields: { email: "stand-in@example.com", name: "Stand In" } }),
  },
];

/**
 * What an anonymous visitor's document POST of each public action (valid body) answers, with the
 * query (a prefix where the address carries random values): a guard put in front of one by mistake
 * shows as a redirect to /auth?redirectTo=… or a 401 instead.
 */
export const PUBLIC_ANSWERS: Record<string, string> = {
  [`${FORGED_UNSUBSCRIBE} one-click`]: "400", // not a signed link
  "/auth signin": "400", // no such account
  "/auth signup": "→/auth?created=1",
  "/auth/sign-out sign-out": "→/auth",
  "/auth/forgot-password request": "200",
  "/auth/reset-password reset": "400", // no such token
  "/auth/verify-email verify": "400", // no such token
  "/auth/google begin": "→/dev/oauth/authorize?",
  "/api/csp-report report": "204",
  "/api/stripe/webhook webhook": "400",
  "/admin-recovery recover": "200", // the same answer whatever the secret
  "/agency-application-signup apply": "→/agency-application-signup?submitted=1",
  "/agency/signup apply": "→/agency/signup?submitted=1",
  "/music-signup signup": "→/auth?created=1",
  [`/${AGENCY_SLUG}/music-signup signup`]: "→/auth?created=1",
  [`/${AGENCY_SLUG}/signup signup`]: "→/auth?created=1",
  [`/${AGENCY_SLUG}/signup signin`]: "400",
  "/dev/factory verify-email": "200",
  "/dev/payout-day run": "200",
  [`${OAUTH_AUTHORIZE} choose`]: "→/auth/google/callback?",
};

/** The development tools answer every kind alike and are no part of the product's permissions. */
export const DEV_TOOL = (c: ActionCase) => c.path.startsWith("/dev/");

/** One request through the whole app, so the first timed test does not pay for compiling it. */
export async function warmUp(): Promise<void> {
  await (await fetchApp("/terms-of-service")).arrayBuffer();
}

/** The world, then the first request, which compiles the whole app inside workerd: for a beforeAll, not a timed test. */
export async function worldReady(): Promise<World> {
  const world = await createWorld();
  await warmUp();
  return world;
}

// ---- Sending -----------------------------------------------------------------------------------

export type Variant = "page" | "data";

/** The address of a variant: a document POST, or the `.data` POST a page with JavaScript sends. */
export function urlOf(path: string, variant: Variant): string {
  if (variant === "page") return path;
  const [pathname, query] = path.split("?");
  return `${pathname === "/" ? "/_" : pathname}.data${query ? `?${query}` : ""}`;
}

/** The form body a page sends: urlencoded, or multipart when it carries files. */
export function formBodyOf(body: Body): URLSearchParams | FormData {
  if (!body.files) return new URLSearchParams(body.fields);
  const form = new FormData();
  for (const [k, v] of Object.entries(body.fields)) form.set(k, v);
  for (const [k, f] of Object.entries(body.files)) form.set(k, f);
  return form;
}

/** A same-origin POST with a cookie, a fresh connecting address and the given body. */
export function post(path: string, variant: Variant, cookie: string | null, body: BodyInit | null, contentType?: string): Promise<Response> {
  const headers = new Headers({ Origin: ORIGIN, "CF-Connecting-IP": freshIp() });
  if (cookie) headers.set("Cookie", cookie);
  if (contentType) headers.set("Content-Type", contentType);
  return fetchApp(urlOf(path, variant), { method: "POST", headers, body });
}

/** The Cookie header for a kind; a fresh session or user where the case asks (see `fresh`). */
export async function cookieFor(world: World, kind: Kind, fresh?: ActionCase["fresh"]): Promise<string | null> {
  if (kind === "anonymous") return null;
  // A banned user never reaches the action, so the world's banned user signs in afresh instead.
  if (fresh === "user" && kind !== "banned") return (await createUser(kind)).cookie;
  if (kind === "banned" || fresh === "session") return (await signInAs(world.users[kind].id)).cookie;
  return world.users[kind].cookie;
}

/**
 * What a person would see, as `outcome()` of the helpers says it ("→/path" or the status), also for
 * an action's `.data` redirect (202 with the target in its body; a loader's is a SingleFetchRedirect).
 */
export async function actionOutcome(res: Response, opts: { query?: boolean } = {}): Promise<string> {
  let target: string | null = null;
  if (res.status >= 300 && res.status < 400) target = res.headers.get("Location");
  else if (res.status === 202) target = /"redirect","([^"]+)"/.exec(await res.clone().text())?.[1] ?? null;
  if (!target) return String(res.status);
  const url = new URL(target, ORIGIN);
  return `→${url.pathname}${opts.query ? url.search : ""}`;
}

/** The title of the toast a response sets, or null. */
export function toastTitle(res: Response): string | null {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-sb_toast="));
  if (!cookie) return null;
  const [, pair = ""] = cookie.split("=");
  const [encoded = ""] = pair.split(";");
  const value = decodeURIComponent(encoded);
  if (!value) return null;
  try {
    const [payload = ""] = value.split(".");
    const json = new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0)));
    return (JSON.parse(json) as { title?: string }).title ?? null;
  } catch {
    return null;
  }
}

/** A readable name for a case: "POST /channels (submit)". */
export function labelOf(c: ActionCase): string {
  const [path, query] = c.path.split("?");
  return `POST ${path}${query === undefined ? "" : `?${query.slice(0, 20)}`} (${c.intent})`;
}
