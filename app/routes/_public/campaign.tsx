import { data, Link } from "react-router";
import { PublicLayout } from "~/components/public-layout";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import { publicCampaign } from "~/modules/campaigns/campaigns.server";
import { STATE_LABELS, formatRate } from "~/modules/campaigns/rules";
import { formatCents } from "~/modules/payments/money";
import { domainLoader } from "~/platform/http.server";
import { Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import type { Route } from "./+types/campaign";

export { NotFoundScreen as ErrorBoundary } from "~/components/error-screen";

// The public page of a live or ended campaign (issue 15): brief, rate, dates, and the sign-up or
// join button. A draft, a campaign not started yet or an unknown slug is the not-found page (404).

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData ? `${loaderData.campaign.title} — ${loaderData.campaign.brand} | Shortbeat` : "Campaign | Shortbeat" },
  ...(loaderData ? [{ name: "description", content: loaderData.campaign.brief.slice(0, 160) }] : []),
];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const campaign = await publicCampaign(args.params.slug);
  if (!campaign) throw data("Not Found", { status: 404 });
  const user = await getOptionalUser(args);
  return { campaign, signedIn: !!user };
});

export default function Campaign({ loaderData }: Route.ComponentProps) {
  const { campaign: c, signedIn } = loaderData;
  const live = c.state === "live";
  return (
    <PublicLayout>
      <main id="main" className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{c.brand}</p>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold text-slate-900">{c.title}</h1>
          <Badge tone={live ? "green" : "slate"}>{STATE_LABELS[c.state]}</Badge>
        </div>
        <dl className="mt-6 grid grid-cols-1 gap-4 rounded-xl border border-slate-200 bg-white p-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-500">Rate</dt>
            <dd className="font-semibold text-slate-900">{formatRate(c.rateCents)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Runs</dt>
            <dd className="font-semibold text-slate-900">
              <LocalTime iso={c.startsAt} /> – <LocalTime iso={c.endsAt} withTime />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Budget left</dt>
            <dd className="font-semibold text-slate-900">{c.budgetReached ? "Budget reached" : formatCents(c.budgetLeftCents)}</dd>
          </div>
        </dl>
        <section aria-labelledby="brief-heading" className="mt-8">
          <h2 id="brief-heading" className="text-lg font-semibold text-slate-900">
            The brief
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-700">{c.brief}</p>
        </section>
        <p className="mt-6 text-sm text-slate-600">Campaigns are optional and opt-in. Payout is up to 60 days after the campaign ends.</p>
        <div className="mt-6 flex flex-wrap gap-3">
          {!live ? (
            <p className="text-sm font-medium text-slate-700">This campaign has ended.</p>
          ) : signedIn ? (
            <Link to="/campaigns" className={buttonClass.primary}>
              Join this campaign
            </Link>
          ) : (
            <>
              <Link to="/auth" className={buttonClass.primary}>
                Sign up to join
              </Link>
              <Link to="/auth" className={buttonClass.secondary}>
                Sign in
              </Link>
            </>
          )}
        </div>
      </main>
    </PublicLayout>
  );
}
