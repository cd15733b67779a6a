import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { licenceCertificateDownload } from "~/modules/music/music.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/music-licence-pdf";

// GET /music/licences/:code/certificate.pdf — the certificate as a one-page PDF attachment, for
// the readers of the certificate page (its owner; admins); 404 otherwise. docs/decisions/0317.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  return licenceCertificateDownload(actorOf(user), args.params.code, new URL(args.request.url).origin);
});
