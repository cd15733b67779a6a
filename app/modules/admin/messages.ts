// The admin console's actions, labels and filters, without zod, for the pages' first load
// (docs/decisions/0086). ./schema.ts re-exports them.

export const REASON_MAX = 500;

export const USER_ACTIONS = [
  "approve",
  "reject",
  "ban",
  "unban",
  "toggle_music_partner",
  "grant_admin",
  "revoke_admin",
  "end_sessions",
  "delete_account",
] as const;

/** Which actions need a reason typed into their confirm step. */
export const ACTIONS_WITH_REASON: readonly UserAction[] = ["reject", "ban", "unban"];

export const USER_ACTION_LABELS: Record<UserAction, { label: string; confirm: string; danger?: boolean }> = {
  approve: { label: "Approve", confirm: "Approve this account? The user is notified and e-mailed." },
  reject: { label: "Reject", confirm: "Reject this account? The user is notified with your reason.", danger: true },
  ban: {
    label: "Ban",
    confirm: "Ban this user? Every session ends at once and the user is notified with your reason.",
    danger: true,
  },
  unban: { label: "Unban", confirm: "Lift the ban? The user is notified with your reason." },
  toggle_music_partner: { label: "Toggle music partner", confirm: "Change this user's music partner access?" },
  grant_admin: {
    label: "Grant admin",
    confirm: "Make this user an admin? They get full access to the admin console; their sessions end.",
    danger: true,
  },
  revoke_admin: { label: "Revoke admin", confirm: "Remove this user's admin role? Their sessions end.", danger: true },
  end_sessions: { label: "End all sessions", confirm: "Sign this user out on every device?", danger: true },
  delete_account: {
    label: "Delete account",
    confirm:
      "Only when the person asked for it (by e-mail from their address). Every session ends now; the account is frozen for 30 days (signing in keeps it), then deleted or anonymised. They are e-mailed.",
    danger: true,
  },
};

export const USER_STATUS_FILTERS = ["all", "pending", "approved", "rejected", "banned", "admin"] as const;

export const SEVERITY_FILTERS = ["all", "low", "medium", "high", "critical"] as const;

export const AGENCY_FILTERS = ["all", "pending", "approved", "rejected", "inactive"] as const;

export const AGENCY_ACTIONS = ["approve", "reject", "activate", "deactivate"] as const;

export const AGENCY_ACTION_LABELS: Record<AgencyAction, { label: string; confirm: string; danger?: boolean }> = {
  approve: { label: "Approve", confirm: "Approve this agency? Its signup links start working and its managers are notified." },
  reject: { label: "Reject", confirm: "Reject this application? The applicant sees your reason.", danger: true },
  activate: { label: "Activate", confirm: "Activate this agency? Its dashboard and signup links work again." },
  deactivate: {
    label: "Deactivate",
    confirm: "Deactivate this agency? Its dashboard and signup links stop working until it is activated again.",
    danger: true,
  },
};

export type UserAction = (typeof USER_ACTIONS)[number];

export type UserStatusFilter = (typeof USER_STATUS_FILTERS)[number];

export type AgencyFilter = (typeof AGENCY_FILTERS)[number];

export type AgencyAction = (typeof AGENCY_ACTIONS)[number];
