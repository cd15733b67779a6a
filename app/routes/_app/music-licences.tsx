import { Download, FileBadge } from "~/ui/icons";
import { Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { isActionFailure } from "~/lib/errors";
import { PageHeader } from "~/ui/page-header";
import { buttonClass } from "~/ui/button";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { LicenceList } from "~/modules/music/components/licence-list";
import { isUseTrackSuccess } from "~/modules/music/components/use-track-button";
import { licenceCertificatePath } from "~/modules/music/licence-code";
import { myLicences, takeLicence, useTrackSchema } from "~/modules/music/music.server";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import type { Route } from "./+types/music-licences";

export const meta = () => [{ title: "My licences | Shortbeat" }];

// 'My licences' (approved users), and the 'Use this track' action the library's rows post to
// (intent=use): the answer carries the licence and its download address; the button then
// downloads the file. An unapproved attempt is refused by the spec's guard and audited.
// docs/decisions/0116.
export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  return { licences: await myLicences(actorOf(user)) };
});

export const action = domainAction(
  async (args: Route.ActionArgs) => {
    const user = await requireApprovedUser(args, { audit: true });
    const input = await parseForm(args.request, useTrackSchema);
    const taken = await takeLicence(actorOf(user), input.trackId, input.channels);
    return { ok: true as const, ...taken };
  },
  { use: "Could not use this track" },
);

export default function MusicLicences({ loaderData, actionData }: Route.ComponentProps) {
  const taken = isUseTrackSuccess(actionData) ? actionData : null;
  const failure = isActionFailure(actionData) ? actionData : null;
  return (
    <>
      <PageHeader
        title="My licences"
        description="Every track you use is licensed to your channels. Print a certificate or share its public link if a video is ever claimed."
        actions={
          <Link to="/music" className={buttonClass.secondary}>
            Browse the library
          </Link>
        }
      />
      {/* Without JavaScript, 'Use this track' posts here as a page: the licence and its file. */}
      {taken ? (
        <div role="status" className="mb-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950">
          <p className="font-semibold">
            {taken.created ? "Licence recorded" : "You already have this licence"}: {taken.licence.title} by {taken.licence.artist} ({taken.licence.code})
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <a href={taken.downloadUrl} download className={buttonClass.primary}>
              <Download className="h-4 w-4" aria-hidden="true" />
              Download the file
            </a>
            <Link to={licenceCertificatePath(taken.licence.code)} className={buttonClass.secondary}>
              <FileBadge className="h-4 w-4" aria-hidden="true" />
              Certificate
            </Link>
          </div>
        </div>
      ) : null}
      {failure ? (
        <div role="alert" className="mb-4 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">{failure.toast.title}</p>
          <p className="mt-1">{failure.toast.description}</p>
          {typeof failure.details?.link === "string" ? (
            <Link to={failure.details.link} className="mt-2 inline-block font-semibold underline underline-offset-2">
              Go to Channels
            </Link>
          ) : null}
        </div>
      ) : null}
      <LicenceList licences={loaderData.licences} />
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
