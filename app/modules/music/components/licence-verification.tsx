import { BadgeCheck, Clock } from "~/ui/icons";
import { formatLicenceDate, type LicenceVerification } from "../licence-code";
import { LicenceFacts } from "./licence-channels";

// The public verification page's answer (/licences/:code): valid, or valid only for videos
// published before the track's withdrawal; for which track and channels, since when. Only the
// creator's display name and the channel titles: nothing else about the person.

export function LicenceVerificationView({ licence, appName }: { licence: LicenceVerification; appName: string }) {
  const since = formatLicenceDate(licence.createdAt);
  const withdrawn = licence.withdrawnAt ? formatLicenceDate(licence.withdrawnAt) : null;
  return (
    <article aria-labelledby="verification-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{appName} licence verification</p>
      <h1 id="verification-title" className="mt-1 font-mono text-xl font-bold tracking-wider break-all text-slate-900 sm:text-2xl">
        {licence.code}
      </h1>

      {withdrawn ? (
        <div role="status" className="mt-5 flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <Clock className="mt-0.5 h-6 w-6 shrink-0 text-amber-700" aria-hidden="true" />
          <div>
            <p className="text-lg font-bold" data-testid="licence-status">
              {`Valid for videos published before ${withdrawn}`}
            </p>
            <p className="mt-1 text-sm">
              {`The track was withdrawn from the ${appName} library on ${withdrawn}. Videos published from ${since} until then remain licensed; videos published later are not covered.`}
            </p>
          </div>
        </div>
      ) : (
        <div role="status" className="mt-5 flex gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-950">
          <BadgeCheck className="mt-0.5 h-6 w-6 shrink-0 text-emerald-700" aria-hidden="true" />
          <div>
            <p className="text-lg font-bold" data-testid="licence-status">
              Valid licence
            </p>
            <p className="mt-1 text-sm">{`This licence is in force since ${since} for the channels below.`}</p>
          </div>
        </div>
      )}

      <LicenceFacts licence={licence} dateLabel="Valid since" />
      <p className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-600">
        The licence lets this creator use the track in short-form videos published on the channels listed. Questions about a claim? Contact {appName} support
        and quote the licence code.
      </p>
    </article>
  );
}
