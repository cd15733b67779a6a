import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { LicenceCertificateView } from "~/modules/music/components/licence-certificate";
import { licenceCertificate } from "~/modules/music/music.server";
import { domainLoader } from "~/platform/http.server";
import { useAppName } from "~/components/public-layout";
import type { Route } from "./+types/music-licence";

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: loaderData ? `Licence ${loaderData.licence.code} | Shortbeat` : "Licence | Shortbeat" }];

// The licence certificate: its owner (admins may read any; docs/decisions/0117); anyone else and an
// unknown code get the not-found page. Printable (print stylesheet in the component).
export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  const licence = await licenceCertificate(actorOf(user), args.params.code);
  return { licence, origin: new URL(args.request.url).origin };
});

export default function MusicLicence({ loaderData }: Route.ComponentProps) {
  const appName = useAppName();
  return <LicenceCertificateView licence={loaderData.licence} appName={appName} origin={loaderData.origin} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
