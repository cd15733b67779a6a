import { serveDownload } from "~/modules/clipping/clipping.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/clipping-file";

// GET/HEAD /clipping/files/<userId>/<key>?exp=…&sig=… — a source video through a URL the server
// signed for one user. The signature is checked, then the access as it is now: a URL issued before
// a revocation stops working at once (docs/decisions/0152). 404 for every refusal.
export const loader = domainResource(({ request }: Route.LoaderArgs) => serveDownload(request));
