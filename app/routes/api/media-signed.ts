import { serveSignedMedia } from "~/modules/media/media.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/media-signed";

// GET/HEAD /media/signed/<key>?exp=…&sig=…: private files from MEDIA, only through a URL the
// worker signed (HMAC-SHA256 over path and expiry). Tampered or expired → 403. The signature is
// the authority (the URL may be used by a <video> element that sends no cookie of ours), see
// docs/decisions/0011-signed-media-urls.md.
export const loader = domainResource(({ request }: Route.LoaderArgs) => serveSignedMedia(request));
