import { data, Form, Link, useNavigation } from "react-router";
import { PublicLayout } from "~/components/public-layout";
import { notFound } from "~/lib/errors";
import { isApproved } from "~/lib/permissions";
import { actorOf } from "~/modules/accounts/accounts.server";
import { getOptionalUser, requireApprovedUser, viewerOf } from "~/modules/accounts/guards.server";
import { hasJoinedCampaign, joinCampaign, publicCampaign } from "~/modules/campaigns/campaigns.server";
import { CAMPAIGN_MESSAGES, CAMPAIGN_TERMS, CAMPAIGN_TITLES } from "~/modules/campaigns/messages";
import { campaignJoinSchema } from "~/modules/campaigns/schema";
import { STATE_LABELS, formatRate } from "~/modules/campaigns/rules";
import { formatCents } from "~/modules/payments/money";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import type { Route } from "./+types/campaign";
import { useActionFailure } from "~/ui/action-failure";

export { NotFoundScreen as ErrorBoundary } from "~/components/error-screen";

// The public page of a live or ended campaign (issue 15): brief, rate, dates, and the sign-up or
// join button. A draft, a campaign not started yet or an unknown slug is the not-found page (404).

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData ? `${loaderData.campaign.title} — ${loaderData.campaign.brand} | Shortbeat` : "Campaign | Shortbeat" },
  ...(loaderData ? [{ name: "description", content: loaderData.campaign.brief.slice(0, 160) }] : []),
];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  // The campaign and the session are independent reads: at the same time.
  const [campaign, user] = await Promise.all([publicCampaign(args.params.slug), getOptionalUser(args)]);
  if (!campaign) throw data("Not Found", { status: 404 });
  // A signed-in approved person joins here directly (the same domain function as /campaigns).
  const canJoin = !!user && isApproved(viewerOf(user));
  const joined = canJoin && campaign.state === "live" ? await hasJoinedCampaign(actorOf(user), campaign.id) : false;
  return { campaign, signedIn: !!user, canJoin, joined };
});

/** Join from the public page: the terms ticked, recorded once by `joinCampaign`; then on to /campaigns to submit. */
export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireApprovedUser(args);
  const campaign = await publicCampaign(args.params.slug);
  if (!campaign) throw notFound(CAMPAIGN_MESSAGES.notFound);
  await parseForm(args.request, campaignJoinSchema);
  const { title } = await joinCampaign(actorOf(user), campaign.id);
  return redirectWithToast(args.request, "/campaigns", {
    type: "success",
    title: "Campaign joined",
    description: `You joined "${title}". Submit your videos below.`,
  });
}, CAMPAIGN_TITLES);

export default function Campaign({ loaderData, actionData }: Route.ComponentProps) {
  const { campaign: c, signedIn, canJoin, joined } = loaderData;
  const live = c.state === "live";
  const failure = useActionFailure(actionData);
  const busy = useNavigation().state === "submitting";
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
          ) : joined ? (
            <>
              <p className="text-sm font-medium text-slate-700">You joined this campaign.</p>
              <Link to="/campaigns" className={buttonClass.primary}>
                Submit your videos
              </Link>
            </>
          ) : canJoin ? (
            <Form method="post" className="w-full space-y-2">
              <input type="hidden" name="intent" value="join" />
              <input type="hidden" name="campaignId" value={c.id} />
              {failure ? (
                <p role="alert" className="text-sm text-red-700">
                  {failure.errors.accept ?? failure.toast.description}
                </p>
              ) : null}
              <label className="flex items-start gap-2 text-sm text-slate-700">
                <input type="checkbox" name="accept" required className="mt-1 h-4 w-4" />
                <span>{CAMPAIGN_TERMS}</span>
              </label>
              <button type="submit" className={buttonClass.primary} disabled={busy}>
                Join this campaign
              </button>
            </Form>
          ) : signedIn ? (
            <p className="text-sm text-slate-700">You can join campaigns once your account is approved.</p>
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
