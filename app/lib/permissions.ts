// The typed permission matrix: who may open which screen. The server guards enforce it; the
// sidebar is computed from it, so the two cannot disagree.

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
  | "music-partner" // approved music partners (and admins)
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
      return v.isAdmin || (isApproved(v) && v.isMusicPartner);
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
