import { serveAvatar } from "~/modules/media/media.server";
import type { Route } from "./+types/media-avatars";

// GET/HEAD /media/avatars/<key>: public images (avatars, logos, notification images) from the
// AVATARS bucket. Public by design, so no guard; the media module answers 404 for a key that
// cannot be one, and caches the rest for a year.
export function loader({ request, params }: Route.LoaderArgs) {
  return serveAvatar(request, params["*"] ?? "");
}
