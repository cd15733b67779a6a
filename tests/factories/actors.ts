// Who a check sees, for tests that call modules and permissions directly (no request, no D1):
// by default an approved user with no special role.
import type { Actor, Viewer } from "~/lib/permissions";

/** A viewer of the sidebar and the page guards; `over` sets what differs. */
export const viewer = (over: Partial<Viewer> = {}): Viewer => ({
  isAdmin: false,
  approvalStatus: "approved",
  isBanned: false,
  isMusicPartner: false,
  hasActiveAgency: false,
  ...over,
});

/** The actor a guard would prove for a signed-in test user; `over` sets what differs. */
export const actorFor = (u: { id: string; email: string }, over: Partial<Actor> = {}): Actor => ({
  id: u.id,
  email: u.email,
  ...viewer(),
  ...over,
});
