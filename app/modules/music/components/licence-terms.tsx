import { Link } from "react-router";
import { LICENCE_TERMS_GOVERNED, licenceTermLines } from "../licence-terms";

// The licence terms in plain words (../licence-terms.ts, the same text as the certificate's PDF).

export function LicenceTerms({ appName, title, artist }: { appName: string; title: string; artist: string }) {
  const [before, agreement, after] = LICENCE_TERMS_GOVERNED;
  return (
    <section aria-labelledby="licence-terms" className="licence-terms">
      <h2 id="licence-terms" className="text-base font-semibold text-slate-900">
        Terms in plain words
      </h2>
      <ul className="mt-2 list-disc space-y-1.5 pl-5 text-sm leading-6 text-slate-700">
        {licenceTermLines(appName, title, artist).map((line) => (
          <li key={line.slice(0, 24)}>{line}</li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-slate-600">
        {before}{" "}
        <Link to="/terms-of-service#creator-agreement" className="underline underline-offset-2 hover:text-slate-900">
          {agreement}
        </Link>{" "}
        {after}
      </p>
    </section>
  );
}
