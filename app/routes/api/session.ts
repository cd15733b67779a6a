import { isApproved } from "~/lib/permissions";
import { getOptionalUser, viewerOf } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/session";

// The current session as the browser may know it (no secrets): used to re-check status.
export async function loader(args: Route.LoaderArgs) {
  const user = await getOptionalUser(args);
  if (!user) return Response.json({ user: null }, { status: 401, headers: { "Cache-Control": "no-store" } });
  return Response.json(
    {
      user: {
        id: user.id,
        email: user.email,
        approvalStatus: user.approvalStatus,
        approved: isApproved(viewerOf(user)),
        isBanned: user.isBanned,
        isAdmin: user.isAdmin,
      },
      expiresAt: user.expiresAt,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
