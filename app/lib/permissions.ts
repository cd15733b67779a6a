import { DomainError } from "./errors";

// The typed permission matrix: who may open which screen (SIDEBAR, canAccess) and who may do
// what to which thing (PERMISSIONS, entity × action). Route guards enforce the first, domain
// modules check the second with `authorize`, and the sidebar and menus read both, so the menu and
// the server cannot disagree. Client-safe: no server imports.

export type Viewer = {
  isAdmin: boolean;
  approvalStatus: "pending" | "approved" | "rejected";
  isBanned: boolean;
  isMusicPartner: boolean;
  /** Manages (or owns) at least one approved, active agency. */
  hasActiveAgency: boolean;
};

export type Access =
  | "public"
  | "signed-in" // sign-in only, no approval: settings, profile
  | "approved" // sign-in plus approval (admins bypass approval)
  | "music-partner" // approved music partners only: admins get no bypass (spec section 2; docs/decisions/0070)
  | "agency" // an approved, active agency (and admins)
  | "admin";

export type AppRoute = {
  path: string;
  label: string;
  access: Access;
  icon: string;
  section: "main" | "admin";
};

// Spec section 2, 'Shell': the main entries in order, then the admin section.
export const SIDEBAR: AppRoute[] = [
  { path: "/dashboard", label: "Dashboard", access: "approved", icon: "layout-dashboard", section: "main" },
  { path: "/music", label: "Music Library", access: "approved", icon: "music", section: "main" },
  { path: "/music/submit", label: "Submit Music", access: "music-partner", icon: "upload", section: "main" },
  { path: "/ai-thumbnail-editor", label: "AI Thumbnail Editor", access: "admin", icon: "image", section: "main" },
  { path: "/channels", label: "Channels", access: "approved", icon: "youtube", section: "main" },
  { path: "/analytics", label: "Analytics", access: "approved", icon: "bar-chart", section: "main" },
  { path: "/referrals", label: "Referrals", access: "approved", icon: "users", section: "main" },
  { path: "/clipping", label: "Clipping", access: "approved", icon: "scissors", section: "main" },
  { path: "/community-chat", label: "Community Chat", access: "approved", icon: "message-circle", section: "main" },
  { path: "/campaigns", label: "Campaigns", access: "approved", icon: "megaphone", section: "main" },
  { path: "/payments", label: "Payments", access: "approved", icon: "wallet", section: "main" },
  { path: "/music/submissions", label: "Music Submissions", access: "music-partner", icon: "list-music", section: "main" },
  { path: "/settings", label: "Settings", access: "signed-in", icon: "settings", section: "main" },
  { path: "/profile", label: "Profile", access: "signed-in", icon: "user", section: "main" },
  { path: "/agency-dashboard", label: "Agency", access: "agency", icon: "building", section: "main" },
  { path: "/admin", label: "Admin", access: "admin", icon: "shield", section: "admin" },
  { path: "/chat-management", label: "Chat Management", access: "admin", icon: "messages-square", section: "admin" },
  { path: "/user-retention", label: "User Retention", access: "admin", icon: "trending-up", section: "admin" },
  { path: "/settings", label: "Settings", access: "admin", icon: "settings", section: "admin" },
];

export function isApproved(v: Viewer): boolean {
  return v.isAdmin || v.approvalStatus === "approved";
}

export function canAccess(v: Viewer | null, access: Access): boolean {
  if (access === "public") return true;
  if (!v || v.isBanned) return false;
  switch (access) {
    case "signed-in":
      return true;
    case "approved":
      return isApproved(v);
    case "music-partner":
      return isApproved(v) && v.isMusicPartner;
    case "agency":
      return v.isAdmin || v.hasActiveAgency;
    case "admin":
      return v.isAdmin;
  }
}

/** The sidebar a viewer sees. Non-admins who are not approved see only settings and profile. */
export function sidebarFor(v: Viewer): { main: AppRoute[]; admin: AppRoute[] } {
  const main = SIDEBAR.filter((r) => r.section === "main" && canAccess(v, r.access)).filter(
    (r) => isApproved(v) || r.path === "/settings" || r.path === "/profile",
  );
  const admin = v.isAdmin ? SIDEBAR.filter((r) => r.section === "admin") : [];
  return { main, admin };
}

/** Non-approved visits to these paths write a high-severity audit record (spec section 6). */
export const AUDITED_PATHS = [
  "/channels",
  "/campaigns",
  "/music/submit",
  "/clipping",
  "/analytics",
  "/payments",
  "/referrals",
  "/community-chat",
  "/music/submissions",
] as const;

/** Only same-origin paths may be a redirect target after sign-in. */
export function safeRedirect(to: unknown, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(to)) return fallback;
  return to;
}

// ---------------------------------------------------------------------------------------------
// Entity × action: what an actor may do. Modules call `authorize(actor, entity, action, ctx)`
// before they read or change anything; they never trust that "the caller has checked".
// ---------------------------------------------------------------------------------------------

/** The user a guard proved, as the domain modules see them. */
export type Actor = Viewer & { id: string; email: string };

/** What a rule may need to know about the thing acted on. */
export type PermissionContext = {
  /** The user who owns the thing (a channel, a submission, a notification, a session). */
  ownerId?: string | null;
  /** The agency the thing belongs to. */
  agencyId?: string | null;
  /** The approved, active agencies the actor manages (agencies module: managedActiveAgencyIds). */
  managedAgencyIds?: readonly string[];
};

type Rule = (actor: Actor, ctx: PermissionContext) => boolean;

// Named predicates: each rule is written once, here.
export const isAdmin: Rule = (a) => a.isAdmin;
export const isSignedIn: Rule = (a) => !a.isBanned;
export const isApprovedActor: Rule = (a) => !a.isBanned && isApproved(a);
/** The profile's music-partner flag decides; being an admin does not make one a partner (docs/decisions/0070). */
export const isMusicPartner: Rule = (a) => !a.isBanned && isApproved(a) && a.isMusicPartner;
export const isOwner: Rule = (a, c) => !a.isBanned && !!c.ownerId && c.ownerId === a.id;
export const isApprovedOwner: Rule = (a, c) => isApprovedActor(a, c) && isOwner(a, c);
/** Manager of this approved, active agency, with an approved account (admins act on every agency). */
export const managesAgency: Rule = (a, c) => !a.isBanned && (a.isAdmin || (isApproved(a) && !!c.agencyId && (c.managedAgencyIds ?? []).includes(c.agencyId)));

export const PERMISSIONS = {
  account: {
    read: isSignedIn,
    update: isSignedIn,
    changePassword: isSignedIn,
    endSession: isOwner,
    // Issue 28: one's own data export and account deletion.
    export: isOwner,
    delete: isOwner,
  },
  user: {
    list: isAdmin,
    read: isAdmin,
    approve: isAdmin,
    reject: isAdmin,
    ban: isAdmin,
    unban: isAdmin,
    setMusicPartner: isAdmin,
    grantAdmin: isAdmin,
    revokeAdmin: isAdmin,
    endSessions: isAdmin,
    // Issue 28: for a person who asked by e-mail.
    export: isAdmin,
    delete: isAdmin,
  },
  auditLog: { read: isAdmin },
  settings: { read: isAdmin, update: isAdmin },
  agency: {
    apply: isSignedIn,
    readOwnApplication: isSignedIn,
    listAll: isAdmin,
    review: isAdmin,
    setStatus: isAdmin,
    manage: managesAgency,
    acceptInvitation: isApprovedActor,
  },
  channel: {
    list: isApprovedActor,
    link: isApprovedActor,
    refresh: isApprovedOwner,
    disconnect: isApprovedOwner,
    readAnalytics: isApprovedActor,
    /** Declaring one's own TikTok / Instagram handles (decision 0265). */
    declareHandles: isApprovedActor,
  },
  manualSubmission: {
    create: isApprovedActor,
    submitForVerification: isApprovedOwner,
    review: isAdmin,
  },
  notification: {
    readOwn: isSignedIn,
    markRead: isOwner,
    broadcast: isAdmin,
  },
  media: {
    uploadAvatar: isSignedIn,
    readSigned: isSignedIn,
  },
  music: {
    browse: isApprovedActor,
    submit: isMusicPartner,
    readOwnSubmissions: isMusicPartner,
    /** Approve or reject a track in review (the admin console's music queue). */
    review: isAdmin,
    /** Take a published track out of the library (its licences stay valid). */
    withdraw: isAdmin,
    /** An unpublished track (in review, rejected, withdrawn): the admins who review it and the partner who submitted it may play it. */
    previewSubmission: (a, c) => isAdmin(a, c) || isApprovedOwner(a, c),
    /** 'Use this track': take a licence for a published track, and list one's own licences. */
    license: isApprovedActor,
    /** A licence certificate: its owner; admins may read any (support, disputes; docs/decisions/0117). */
    readLicence: (a, c) => isAdmin(a, c) || isApprovedOwner(a, c),
    /** The licensed file: its owner only. */
    downloadLicensed: isApprovedOwner,
  },
  campaign: {
    /** /campaigns: live campaigns, joining one (its terms), submitting videos, one's own submissions. */
    participate: isApprovedActor,
    /** The admin console's campaigns: create, edit, launch, end, review submissions, settle, funds received. */
    manage: isAdmin,
  },
  chat: {
    /** /community-chat: read rooms and history, mark read, find members to mention. */
    read: isApprovedActor,
    /** Post and edit (the room's own rules — archived, announcements, mutes — are the chat module's). */
    post: isApprovedActor,
    editMessage: isApprovedOwner,
    /** Its author, or an admin (audit-logged). */
    deleteMessage: (a, c) => isAdmin(a, c) || isApprovedOwner(a, c),
    /** /chat-management: rooms, the feed, mutes. */
    manage: isAdmin,
  },
  clipping: {
    /** /clipping: one's clipper invitations, clippers, source folder, clips and splits (ownership is the module's). */
    use: isApprovedActor,
    /** A source video, a clip under review, a clipper link: its creator. */
    manageOwn: isApprovedOwner,
    /** Views of TikTok and Instagram Reels clips are entered by an admin. */
    setViews: isAdmin,
  },
  payments: {
    /** /payments: one's own statement, balances and payouts (CSV export included). */
    readOwn: isApprovedActor,
    /** One's own Creator Agreement: give or withdraw notice, answer a revised-share offer. */
    agreement: isApprovedActor,
    /** The admin's revenue import, month finalization and payout batches. */
    manage: isAdmin,
    /** Marking a payout paid with the bank reference. */
    markPaid: isAdmin,
  },
  growth: {
    /** /referrals: one's own referral code, link, QR code, counts, referred people and bonus total. */
    readOwnReferrals: isApprovedActor,
    /** /user-retention: sign-ups, funnel, active users, cohorts, inactive users and their CSV. */
    readRetention: isAdmin,
    /** 'Notify' inactive users (bell and e-mail, once per user per week). */
    notifyInactive: isAdmin,
    /** 'Refresh figures': run the daily job's retention work now. */
    refreshRetention: isAdmin,
  },
  /** The AI thumbnail editor (issue 19): projects, exports, sending an export to a creator. */
  thumbnail: { use: isAdmin },
} as const satisfies Record<string, Record<string, Rule>>;

export type Entity = keyof typeof PERMISSIONS;
export type ActionOf<E extends Entity> = keyof (typeof PERMISSIONS)[E] & string;

export function can<E extends Entity>(actor: Actor | null, entity: E, action: ActionOf<E>, ctx: PermissionContext = {}): boolean {
  if (!actor) return false;
  const rule = PERMISSIONS[entity][action] as Rule;
  return rule(actor, ctx);
}

/**
 * Throws unless the actor may: 403 'Access Denied' for a role the actor lacks, 404 for a thing
 * the actor does not own (never reveal that someone else's exists).
 */
export function authorize<E extends Entity>(actor: Actor | null, entity: E, action: ActionOf<E>, ctx: PermissionContext = {}): asserts actor is Actor {
  if (can(actor, entity, action, ctx)) return;
  if (!actor) throw new DomainError("unauthenticated", "Please sign in to access this area.", { title: "Authentication Required" });
  if ("ownerId" in ctx && ctx.ownerId !== actor.id && !actor.isBanned) {
    throw new DomainError("not_found", "Not found.");
  }
  throw new DomainError("forbidden", "You are not allowed to do this.", { title: "Access Denied" });
}
