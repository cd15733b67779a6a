import { data, Form, Link, useNavigation } from "react-router";
import { PublicLayout } from "~/components/public-layout";
import { notFound } from "~/lib/errors";
import { isApproved } from "~/lib/permissions";
import { actorOf } from "~/modules/accounts/accounts.server";
import { getOptionalUser, requireApprovedUser, viewerOf } from "~/modules/accounts/guards.server";
import { hasJoinedCampaign, joinCampaign, publicCampaign, publicCampaignPage } from "~/modules/campaigns/campaigns.server";
import { CAMPAIGN_MESSAGES, CAMPAIGN_TERMS, CAMPAIGN_TITLES } from "~/modules/campaigns/messages";
import { campaignJoinSchema } from "~/modules/campaigns/schema";
import { STATE_LABELS, budgetUsed, formatRate } from "~/modules/campaigns/rules";
import { PublicPreview } from "~/modules/music/components/public-preview";
import { formatCount } from "~/lib/format";
import { formatCents } from "~/modules/payments/money";
import { parseForm } from "~/platform/body.server";
import { appOrigin } from "~/platform/env.server";
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

/** The card a shared link shows (public/, 1200 × 630). */
const SHARE_IMAGE = "/og-campaign.jpg";

// A shared link previews (Open Graph and Twitter cards): the campaign's title, its brief and the
// site's card image, with absolute addresses (docs/decisions/0241).
export const meta = ({ loaderData }: Route.MetaArgs) => {
  if (!loaderData) return [{ title: "Campaign | Shortbeat" }];
  const { campaign: c, share } = loaderData;
  const title = `${c.title} — ${c.brand}`;
  const description = shareDescription(c.brief);
  return [
    { title: `${title} | Shortbeat` },
    { name: "description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: "Shortbeat" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: share.url },
    { property: "og:image", content: share.image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: `${c.brand} campaign on Shortbeat` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: share.image },
    { tagName: "link", rel: "canonical", href: share.url },
  ];
};

/** The brief as a preview line: one paragraph of at most 200 characters, cut at a word. */
function shareDescription(brief: string): string {
  const flat = brief.replace(/\s+/g, " ").trim();
  if (flat.length <= 200) return flat;
  return `${flat.slice(0, 199).replace(/\s+\S*$/, "")}…`;
}

/** The sign-in screen that leads back to this campaign (the accounts module checks the path again). */
const authHref = (slug: string, mode?: "signup") => `/auth?${mode ? "mode=signup&" : ""}redirectTo=${encodeURIComponent(`/campaigns/${slug}`)}`;

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  // The campaign and the session are independent reads: at the same time.
  const [page, user] = await Promise.all([publicCampaignPage(args.params.slug), getOptionalUser(args)]);
  if (!page) throw data("Not Found", { status: 404 });
  const { campaign, track, leaderboard } = page;
  // A signed-in approved person joins here directly (the same domain function as /campaigns).
  const canJoin = !!user && isApproved(viewerOf(user));
  const joined = canJoin && campaign.state === "live" ? await hasJoinedCampaign(actorOf(user), campaign.id) : false;
  const origin = appOrigin();
  const share = { url: `${origin}/campaigns/${campaign.slug}`, image: `${origin}${SHARE_IMAGE}` };
  return { campaign, track, leaderboard, signedIn: !!user, canJoin, joined, share };
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
  const { campaign: c, track, leaderboard, signedIn, canJoin, joined } = loaderData;
  const used = budgetUsed(c);
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
        <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4">
          <p id="budget-used-label" className="text-sm font-medium text-slate-900" data-testid="budget-used">
            {used.label}
          </p>
          <div
            role="progressbar"
            aria-labelledby="budget-used-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={used.percent}
            aria-valuetext={`${used.percent}% of the budget used`}
            className="mt-2 h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-brand-600" style={{ width: `${used.percent}%` }} />
          </div>
        </div>
        <section aria-labelledby="brief-heading" className="mt-8">
          <h2 id="brief-heading" className="text-lg font-semibold text-slate-900">
            The brief
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-700">{c.brief}</p>
        </section>
        {track ? (
          <section aria-labelledby="track-heading" className="mt-8">
            <h2 id="track-heading" className="text-lg font-semibold text-slate-900">
              Required track
            </h2>
            <p className="mt-1 text-sm text-slate-600">Use this track in every video you submit.</p>
            <div className="mt-3">
              <PublicPreview track={track} />
            </div>
          </section>
        ) : null}
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
              <Link to={authHref(c.slug, "signup")} className={buttonClass.primary}>
                Sign up to join
              </Link>
              <Link to={authHref(c.slug)} className={buttonClass.secondary}>
                Sign in
              </Link>
            </>
          )}
        </div>
        <section aria-labelledby="leaderboard-heading" className="mt-8">
          <h2 id="leaderboard-heading" className="text-lg font-semibold text-slate-900">
            Leaderboard
          </h2>
          {leaderboard.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{live ? "No approved videos yet. Be the first." : "No approved videos."}</p>
          ) : (
            <div className="mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Creators by verified views of their approved videos</caption>
                <thead className="bg-slate-50 text-slate-600">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Rank
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Creator
                    </th>
                    <th scope="col" className="px-4 py-2 text-right font-medium">
                      Videos
                    </th>
                    <th scope="col" className="px-4 py-2 text-right font-medium">
                      Verified views
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {leaderboard.map((e) => (
                    <tr key={e.rank} data-testid="leaderboard-row">
                      <td className="px-4 py-2 tabular-nums text-slate-600">{e.rank}</td>
                      <th scope="row" className="px-4 py-2 font-medium text-slate-900">
                        {e.name}
                      </th>
                      <td className="px-4 py-2 text-right tabular-nums text-slate-700">{formatCount(e.videos)}</td>
                      <td className="px-4 py-2 text-right tabular-nums font-semibold text-slate-900">{formatCount(e.views)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </main>
    </PublicLayout>
  );
}
