import { BadgeCheck, Clock, X } from "~/ui/icons";
import { formatLicenceDate, type LicenceVerification } from "../licence-code";
import { LicenceFacts } from "./licence-channels";

// The public verification page's answer (/licences/:code): valid, or valid only for videos
// published before the track's withdrawal; for which track and channels, since when. Only the
// creator's display name and the channel titles: nothing else about the person. A code no licence
// has: "This is not a valid … licence" (404). Support is an e-mail to the reply-to address.

export function LicenceVerificationView({ licence, appName, support }: { licence: LicenceVerification; appName: string; support: string | null }) {
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
        The licence lets this creator use the track in short-form videos published on the channels listed. Questions about a claim?{" "}
        <SupportLink appName={appName} support={support} code={licence.code} /> and quote the licence code.
      </p>
    </article>
  );
}

/** The answer for a code no licence has (404): said in the licence's words, with the way to ask support. */
export function LicenceNotValidView({ code, appName, support }: { code: string; appName: string; support: string | null }) {
  return (
    <article aria-labelledby="verification-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{appName} licence verification</p>
      <div role="status" className="mt-4 flex gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-950">
        <X className="mt-0.5 h-6 w-6 shrink-0 text-red-700" aria-hidden="true" />
        <div>
          <h1 id="verification-title" className="text-lg font-bold" data-testid="licence-status">
            {`This is not a valid ${appName} licence`}
          </h1>
          <p className="mt-1 text-sm break-words">
            {`No ${appName} licence has the code “${code}”. Check it against the licence certificate: a code looks like SB-7K2M-9QXD-4HTR (any case; the dashes may be left out).`}
          </p>
        </div>
      </div>
      <p className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-600">
        Think a video was claimed wrongly, or the code should exist? <SupportLink appName={appName} support={support} code={code} /> and quote the code you were
        given.
      </p>
    </article>
  );
}

/** 'Contact Shortbeat support': an e-mail to the support address with the code in the subject (plain words when none is set). */
function SupportLink({ appName, support, code }: { appName: string; support: string | null; code: string }) {
  const label = `Contact ${appName} support`;
  if (!support) return <>{label}</>;
  const subject = encodeURIComponent(`Licence ${code}`);
  return (
    <a href={`mailto:${support}?subject=${subject}`} className="font-medium text-slate-900 underline underline-offset-2 hover:text-brand-700">
      {label}
    </a>
  );
}
