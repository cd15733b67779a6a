import { data, isRouteErrorResponse, Link, useRouteError } from "react-router";
import { ErrorScreen, NotFoundScreen } from "~/components/error-screen";
import { PublicLayout, useAppName } from "~/components/public-layout";
import { LicenceNotValidView, LicenceVerificationView } from "~/modules/music/components/licence-verification";
import { verifyLicence } from "~/modules/music/music.server";
import { supportEmail } from "~/platform/env.server";
import { domainLoader } from "~/platform/http.server";
import type { Route } from "./+types/licence";

// The public licence verification page (no sign-in): whether a licence is valid, for which track
// and channels, since when. Unknown codes: 404 saying "This is not a valid Shortbeat licence" (issue
// 42), with the way to ask support, not the generic not-found page. Rate-limited per address:
// 429 'Rate limit exceeded'. Never cached (no-store): the answer changes when a track is
// withdrawn, and the page is not worth a shared cache. docs/decisions/0118.
export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData?.licence ? `Licence ${loaderData.licence.code} | Shortbeat` : "Licence verification | Shortbeat" },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = ({ errorHeaders }) => {
  const h = new Headers({ "Cache-Control": "no-store" });
  const retryAfter = errorHeaders?.get("Retry-After");
  if (retryAfter) h.set("Retry-After", retryAfter);
  return h;
};

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const licence = await verifyLicence(args.request, args.params.code);
  return data({ licence, code: args.params.code.slice(0, 40), support: supportEmail() }, { status: licence ? 200 : 404 });
});

export default function LicencePage({ loaderData }: Route.ComponentProps) {
  const appName = useAppName();
  return (
    <PublicLayout>
      <main id="main" className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
        {loaderData.licence ? (
          <LicenceVerificationView licence={loaderData.licence} appName={appName} support={loaderData.support} />
        ) : (
          <LicenceNotValidView code={loaderData.code} appName={appName} support={loaderData.support} />
        )}
      </main>
    </PublicLayout>
  );
}

/** 404 (no such route; an unknown code renders above) → the not-found page; 429 → the spec's 'Rate limit exceeded'; anything else → the error screen. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 429) {
    return (
      <PublicLayout>
        <main id="main" className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600">429</p>
          <h1 className="mt-2 text-3xl font-bold text-slate-900">Rate limit exceeded</h1>
          <p className="mt-3 text-slate-600">Please wait before trying again.</p>
          <Link to="/" className="mt-6 inline-block rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700">
            Back to home
          </Link>
        </main>
      </PublicLayout>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  return <ErrorScreen error={error} />;
}
