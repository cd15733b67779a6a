import { requireApiUser } from "~/server/guards.server";
import type { Route } from "./+types/notifications";

// Placeholder: the notifications issue builds list / mark read / mark all here.
export async function loader(args: Route.LoaderArgs) {
  await requireApiUser(args);
  return Response.json({ notifications: [] });
}
