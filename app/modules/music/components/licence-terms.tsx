import { Link } from "react-router";
import { CREATOR_SHARE_PERCENT, PAYOUT_DAY_OF_MONTH } from "~/lib/constants";

// The licence terms in plain words: what the Creator Agreement (spec, 'Agreement terms') means for
// one licensed track. The agreement itself (/terms-of-service) is what binds.

export function LicenceTerms({ appName, title, artist }: { appName: string; title: string; artist: string }) {
  return (
    <section aria-labelledby="licence-terms" className="licence-terms">
      <h2 id="licence-terms" className="text-base font-semibold text-slate-900">
        Terms in plain words
      </h2>
      <ul className="mt-2 list-disc space-y-1.5 pl-5 text-sm leading-6 text-slate-700">
        <li>{`You may use “${title}” by ${artist} in short-form videos on the channels named on this certificate, including monetized videos.`}</li>
        <li>
          {`Revenue share: you receive ${CREATOR_SHARE_PERCENT}% of the net revenue from the licensed music in your monetized short videos (net means the platform's revenue less taxes and fees), paid on or around the ${PAYOUT_DAY_OF_MONTH}th of each month once ${appName} has received the funds from the platform.`}
        </li>
        <li>
          Exclusivity: during your Creator Agreement's term (12 months from first linking a channel, renewing for further 12-month periods) you may not use
          other third-party licensed-music services for revenue on short videos. Still allowed: videos without third-party music, music from the video
          platform's own library, other royalty-free libraries with no revenue-share deal, and other brand work.
        </li>
        <li>The file is for your videos only: do not share, sell or publish the audio on its own.</li>
        <li>If the track is withdrawn from the library, this licence stays valid for videos published before the withdrawal date.</li>
      </ul>
      <p className="mt-2 text-xs text-slate-600">
        The{" "}
        <Link to="/terms-of-service#creator-agreement" className="underline underline-offset-2 hover:text-slate-900">
          Creator Agreement
        </Link>{" "}
        governs this licence (law of England and Wales).
      </p>
    </section>
  );
}
