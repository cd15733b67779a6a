import { SIDEBAR_COOKIE_NAME } from "~/lib/constants";
import { isApproved, sidebarFor } from "~/lib/permissions";
import { readCookie } from "~/platform/cookies.server";
import { appName } from "~/platform/env.server";
import { greetingName, viewerOf } from "./guards.server";
import type { SessionUser } from "./session.server";

/** What the signed-in shell needs, from the session lookup alone (no extra round trip). */
export function shellData(request: Request, user: SessionUser) {
  const viewer = viewerOf(user);
  return {
    appName: appName(),
    sidebarOpen: readCookie(request, SIDEBAR_COOKIE_NAME) !== "false",
    sidebar: sidebarFor(viewer),
    user: {
      id: user.id,
      email: user.email,
      displayName: greetingName(user),
      avatarUrl: user.avatarUrl,
      isAdmin: user.isAdmin,
      approved: isApproved(viewer),
      unreadCount: user.unreadCount,
    },
  };
}
