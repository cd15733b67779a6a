import { env } from "~/platform/env.server";
import { isValidKey, serveObject } from "~/modules/media/media.server";
import type { Route } from "./+types/media-avatars";

// GET/HEAD /media/avatars/<key>: public images (avatars, logos, notification images) from the
// AVATARS bucket. Public by design, so no guard; keys are made by the server and never reused
// for other content, so responses may be cached for a year.
export async function loader({ request, params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  if (!isValidKey(key)) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return serveObject(env.AVATARS, key, request, "public, max-age=31536000, immutable");
}
