import { env } from "~/platform/env.server";
import { serveObject, verifySignedUrl } from "~/modules/media/media.server";
import type { Route } from "./+types/media-signed";

// GET/HEAD /media/signed/<key>?exp=…&sig=…: private files from MEDIA, only through a URL the
// worker signed (HMAC-SHA256 over path and expiry). Tampered or expired → 403. The signature is
// the authority (the URL may be used by a <video> element that sends no cookie of ours), see
// docs/decisions/0011-signed-media-urls.md.
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const check = await verifySignedUrl(url);
  if (!check.ok) {
    return new Response(check.reason === "expired" ? "Forbidden: this link has expired" : "Forbidden: invalid signature", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  // Cacheable by the browser (seeking re-requests ranges) but never past the URL's expiry.
  const maxAge = Math.max(0, check.exp - Math.floor(Date.now() / 1000));
  return serveObject(env.MEDIA, check.key, request, `private, max-age=${Math.min(maxAge, 3600)}`);
}
