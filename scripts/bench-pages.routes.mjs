// The pages scripts/bench-pages.mjs measures, each as the kind of user who uses it. `as` names a
// seeded demo account (app/dev/seed.server.ts, password Shortbeat#2026); no `as` = signed out.
// A later issue that adds a main page adds it here.
export const ACCOUNTS = {
  creator: "creator@shortbeat.test",
  admin: "admin@shortbeat.test",
  agency: "agency@shortbeat.test",
  partner: "partner@shortbeat.test",
  clipper: "clipper@shortbeat.test",
};

export const ROUTES = [
  // Public
  { path: "/" },
  { path: "/auth" },
  { path: "/terms-of-service" },
  // Creator
  { path: "/dashboard", as: "creator" },
  { path: "/music", as: "creator" },
  { path: "/campaigns", as: "creator" },
  { path: "/channels", as: "creator" },
  { path: "/analytics", as: "creator" },
  { path: "/referrals", as: "creator" },
  { path: "/community-chat", as: "creator" },
  { path: "/payments", as: "creator" },
  { path: "/settings", as: "creator" },
  { path: "/profile", as: "creator" },
  // Clipper, music partner, agency manager
  { path: "/clipping", as: "clipper" },
  { path: "/music/submit", as: "partner" },
  { path: "/music/submissions", as: "partner" },
  { path: "/agency-dashboard", as: "agency" },
  // Admin
  { path: "/admin", as: "admin" },
  { path: "/admin/audit-log", as: "admin" },
  { path: "/admin/payments", as: "admin" },
  { path: "/admin/settings", as: "admin" },
  { path: "/admin/agencies", as: "admin" },
  { path: "/admin/verifications", as: "admin" },
  { path: "/admin/broadcast", as: "admin" },
  { path: "/chat-management", as: "admin" },
  { path: "/user-retention", as: "admin" },
];
