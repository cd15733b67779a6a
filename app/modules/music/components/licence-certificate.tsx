import { Download, ExternalLink, FileBadge, Printer } from "~/ui/icons";
import { Link } from "react-router";
import { buttonClass } from "~/ui/button";
import { formatLicenceDate, type LicenceCertificate, licenceDownloadPath, licencePdfPath, licenceVerificationPath } from "../licence-code";
import { LicenceFacts } from "./licence-channels";
import { LicenceTerms } from "./licence-terms";

// The licence certificate (its owner; admins may read it): track, artist, creator, channels,
// date, code and the terms in plain words. Printable: the print stylesheet below hides the shell
// (sidebar, header, player, toasts) and the buttons, and prints the certificate alone on white.
// Or downloaded as a one-page PDF (licence-pdf.ts), to attach to a claim dispute.

/**
 * Print rules for this page only (the <style> exists while the certificate is shown). The shell is
 * not ours to change, so it is hidden by its landmarks: the sidebar (#app-sidebar), the header and
 * banner beside #main, the music player region.
 */
const PRINT_CSS = `
@media print {
  @page { margin: 14mm; }
  html, body, div:has(#main) { background: #fff !important; }
  #app-sidebar, a[href="#main"], [data-testid="music-player"], section[aria-label="Music player"], [aria-live], .licence-no-print { display: none !important; }
  div:has(> #main) > :not(#main) { display: none !important; }
  div:has(> #main) { padding-left: 0 !important; }
  #main { max-width: none !important; padding: 0 !important; }
  #main > :not(.licence-print-root) { display: none !important; }
  .licence-certificate { border: 1px solid #94a3b8 !important; box-shadow: none !important; break-inside: avoid; }
  .licence-certificate a { color: inherit !important; text-decoration: none !important; }
}
`;

export function LicenceCertificateView({ licence, appName, origin }: { licence: LicenceCertificate; appName: string; origin: string }) {
  const verifyUrl = `${origin}${licenceVerificationPath(licence.code)}`;
  return (
    <div className="licence-print-root mx-auto max-w-3xl">
      <style>{PRINT_CSS}</style>
      <nav aria-label="Breadcrumb" className="licence-no-print mb-4 text-sm text-slate-600">
        <Link to="/music" className="underline-offset-2 hover:text-slate-900 hover:underline">
          Music Library
        </Link>
        <span aria-hidden="true"> / </span>
        <Link to="/music/licences" className="underline-offset-2 hover:text-slate-900 hover:underline">
          My licences
        </Link>
      </nav>

      <article aria-labelledby="certificate-title" className="licence-certificate rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <header className="flex flex-col gap-4 border-b border-slate-200 pb-5 sm:flex-row sm:items-start sm:justify-between">
          <div>
            <p className="flex items-center gap-2 text-sm font-bold tracking-wide text-brand-700 uppercase">
              <span aria-hidden="true" className="inline-flex h-6 w-6 items-center justify-center rounded bg-brand-600 text-xs font-black text-white">
                {appName.slice(0, 1).toUpperCase()}
              </span>
              {appName}
            </p>
            <h1 id="certificate-title" className="mt-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              Music licence certificate
            </h1>
          </div>
          <div className="sm:text-right">
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Licence code</p>
            <p className="font-mono text-lg font-bold tracking-wider break-all text-slate-900 sm:text-xl" data-testid="licence-code">
              {licence.code}
            </p>
          </div>
        </header>

        {licence.withdrawnAt ? (
          <p role="status" className="mt-5 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {`This track was withdrawn from the library on ${formatLicenceDate(licence.withdrawnAt)}. The licence stays valid for videos published before ${formatLicenceDate(licence.withdrawnAt)}.`}
          </p>
        ) : null}

        <LicenceFacts licence={licence} dateLabel="Date issued" links />

        <div className="mt-6 border-t border-slate-200 pt-5">
          <LicenceTerms appName={appName} title={licence.title} artist={licence.artist} />
        </div>

        <footer className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-700">
          <p>
            Anyone can check this licence, without signing in, at
            <br />
            <a href={verifyUrl} className="font-medium break-all text-slate-900 underline underline-offset-2">
              {verifyUrl}
            </a>
          </p>
        </footer>
      </article>

      <div className="licence-no-print mt-4 flex flex-wrap gap-2">
        <button type="button" onClick={() => window.print()} className={buttonClass.primary}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          Print
        </button>
        <a href={licencePdfPath(licence.code)} className={buttonClass.secondary} download>
          <FileBadge className="h-4 w-4" aria-hidden="true" />
          Download PDF
        </a>
        {licence.own && !licence.withdrawnAt ? (
          <a href={licenceDownloadPath(licence.code)} className={buttonClass.secondary} download>
            <Download className="h-4 w-4" aria-hidden="true" />
            Download file
          </a>
        ) : null}
        <Link to={licenceVerificationPath(licence.code)} className={buttonClass.secondary}>
          <ExternalLink className="h-4 w-4" aria-hidden="true" />
          Public verification page
        </Link>
      </div>
    </div>
  );
}
