import { Form, Link, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import type { ActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { campaignsPage, joinCampaign, submitCampaignVideo, type LiveCampaign } from "~/modules/campaigns/campaigns.server";
import { CAMPAIGN_TERMS, CAMPAIGN_TITLES, RAISE_CAUSE_TEXT, SUBMISSION_STATUS_LABELS } from "~/modules/campaigns/messages";
import { campaignParticipateSchema } from "~/modules/campaigns/schema";
import { STATE_LABELS, formatRate } from "~/modules/campaigns/rules";
import { PLATFORM_LABELS } from "~/modules/campaigns/video-url";
import { PlayButton } from "~/modules/music/components/play-button";
import { formatPayoutDay } from "~/modules/payments/calendar";
import { formatCents } from "~/modules/payments/money";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Badge, type Tone } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { DataTable, Td } from "~/ui/table";
import type { Route } from "./+types/campaigns";
import { FailureAlert, shownInline, useActionFailure } from "~/ui/action-failure";
import { formatCount } from "~/lib/format";

// The creator's campaigns (issue 15): live campaigns to join and submit videos to, their own
// submissions with verified views and estimated payout, and the ended campaigns they joined with
// the payout date. docs/decisions/0140.

export const meta = () => [{ title: "Campaigns | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  return campaignsPage(actorOf(user));
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireApprovedUser(args);
  const input = await parseForm(args.request, campaignParticipateSchema);
  const actor = actorOf(user);
  switch (input.intent) {
    case "join": {
      const { title } = await joinCampaign(actor, input.campaignId);
      return redirectWithToast(args.request, "/campaigns", {
        type: "success",
        title: "Campaign joined",
        description: `You joined "${title}". Submit your videos below.`,
      });
    }
    case "submit": {
      const { title, review } = await submitCampaignVideo(actor, args.request, input);
      return redirectWithToast(args.request, "/campaigns", {
        type: "success",
        title: "Video submitted",
        description: review ?? `Your video for "${title}" is waiting for review.`,
      });
    }
  }
}, CAMPAIGN_TITLES);

/** The fields whose refusal the campaign card shows beside the field: said there once, no toast or banner. */
const INLINE_FIELDS = ["url", "accept"] as const;

const STATUS_TONE: Record<"pending" | "approved" | "rejected", Tone> = { pending: "amber", approved: "green", rejected: "red" };

export default function Campaigns({ loaderData, actionData }: Route.ComponentProps) {
  const { live, submissions, ended } = loaderData;
  const failure = useActionFailure(actionData, { inlineFields: INLINE_FIELDS });

  return (
    <div className="space-y-10">
      <PageHeader title="Campaigns" description="Optional paid promotions, usually paid per 1,000 views. Payout is up to 60 days after a campaign ends." />
      <FailureAlert failure={shownInline(failure, INLINE_FIELDS) ? null : failure} className="" />

      <Section id="live-campaigns" title="Live campaigns">
        {live.length === 0 ? (
          <p className="mt-2 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
            No live campaigns right now. When one goes live you can join it here.
          </p>
        ) : (
          <ul className="mt-3 grid grid-cols-1 gap-4 xl:grid-cols-2">
            {live.map((c) => (
              <li key={c.id}>
                <CampaignCard campaign={c} failure={failure?.values?.campaignId === c.id ? failure : null} />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="my-submissions" title="Your submissions">
        {submissions.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No videos submitted yet.</p>
        ) : (
          <DataTable
            labelledBy="my-submissions"
            className="mt-3"
            stacked
            columns={["Campaign", { label: "Video", className: "min-w-[11rem]" }, "Status", "Verified views", "Estimated payout"]}
            rows={submissions}
            rowKey={(s) => s.id}
          >
            {(s) => (
              <>
                <Td className="font-medium">{s.campaignTitle}</Td>
                <Td label="Video">
                  <span>
                    <a href={s.url} target="_blank" rel="noreferrer noopener" className="whitespace-nowrap text-brand-700 underline">
                      {PLATFORM_LABELS[s.platform]} video
                    </a>
                    <div className="text-xs text-slate-500">
                      Submitted <LocalTime iso={s.createdAt} /> at {formatRate(s.rateCents)}
                    </div>
                  </span>
                </Td>
                <Td label="Status">
                  <span>
                    <Badge tone={STATUS_TONE[s.status]}>{SUBMISSION_STATUS_LABELS[s.status]}</Badge>
                    {s.reason ? <span className="mt-1 block text-xs text-slate-600">Reason: {s.reason}</span> : null}
                    {s.raise ? (
                      <span className="mt-1 block text-xs text-slate-600" data-testid="raise-note">
                        Raised from {formatCents(s.raise.fromCents)} on <LocalTime iso={s.raise.at} />: {RAISE_CAUSE_TEXT[s.raise.cause]}.
                      </span>
                    ) : null}
                  </span>
                </Td>
                <Td label="Verified views" className="tabular-nums">
                  {s.status === "approved" ? formatCount(s.views) : "—"}
                </Td>
                <Td label="Estimated payout" className="tabular-nums">
                  {s.status === "approved" ? formatCents(s.amountCents) : "—"}
                </Td>
              </>
            )}
          </DataTable>
        )}
      </Section>

      <Section id="ended-campaigns" title="Ended campaigns you joined">
        {ended.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">None yet.</p>
        ) : (
          <DataTable
            labelledBy="ended-campaigns"
            className="mt-3"
            stacked
            columns={["Campaign", "Ended", "Status", "Your amount", "Payout date"]}
            rows={ended}
            rowKey={(c) => c.id}
          >
            {(c) => (
              <>
                <Td className="font-medium">
                  {c.title}
                  <div className="text-xs text-slate-500">{c.brand}</div>
                </Td>
                <Td label="Ended">
                  <LocalTime iso={c.endedAt} />
                </Td>
                <Td label="Status">
                  <Badge tone={c.state === "settled" ? "green" : "slate"}>{STATE_LABELS[c.state]}</Badge>
                </Td>
                <Td label="Your amount" className="tabular-nums">
                  {formatCents(c.amountCents)}
                </Td>
                <Td label="Payout date">{c.payableOn ? formatPayoutDay(c.payableOn) : `By ${formatPayoutDay(c.deadline)}`}</Td>
              </>
            )}
          </DataTable>
        )}
      </Section>
    </div>
  );
}

function CampaignCard({ campaign: c, failure: f }: { campaign: LiveCampaign; failure: ActionFailure | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const headingId = `campaign-${c.id}`;
  return (
    <article aria-labelledby={headingId} className="h-full rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{c.brand}</p>
          <h3 id={headingId} className="text-base font-semibold text-slate-900">
            {c.title}
          </h3>
        </div>
        {c.joined ? <Badge tone="green">Joined</Badge> : null}
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-500">Rate</dt>
          <dd className="font-medium text-slate-900">{formatRate(c.rateCents)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Budget left</dt>
          <dd className="font-medium text-slate-900">{c.budgetReached ? <Badge tone="amber">Budget reached</Badge> : formatCents(c.budgetLeftCents)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Ends</dt>
          <dd className="font-medium text-slate-900">
            <LocalTime iso={c.endsAt} withTime />
          </dd>
        </div>
      </dl>
      <p className="mt-3 line-clamp-4 whitespace-pre-line text-sm text-slate-700">{c.brief}</p>
      <p className="mt-1 text-sm">
        <Link to={`/campaigns/${c.slug}`} className="text-brand-700 underline">
          Read the full brief
        </Link>
      </p>
      {c.track ? (
        <div className="mt-3 flex items-center gap-3 rounded-lg bg-slate-50 p-2">
          <PlayButton track={c.track} />
          <div className="min-w-0 text-sm">
            <p className="text-xs text-slate-500">Required track</p>
            <p className="truncate font-medium text-slate-900">
              {c.track.title} — {c.track.artist}
            </p>
          </div>
        </div>
      ) : null}
      {c.minSubscribers > 0 ? <p className="mt-2 text-xs text-slate-600">Needs a linked channel with {formatCount(c.minSubscribers)}+ subscribers.</p> : null}

      {c.joined ? (
        <Form method="post" className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="submit" />
          <input type="hidden" name="campaignId" value={c.id} />
          <Field
            label="Video link"
            name="url"
            type="url"
            inputMode="url"
            required
            placeholder="https://www.youtube.com/shorts/…"
            hint="YouTube, TikTok or Instagram, your own: on a YouTube channel you linked, or posted by the TikTok / Instagram handle on your Channels page."
            defaultValue={f?.intent === "submit" ? f.values?.url : undefined}
            error={f?.intent === "submit" ? (f.errors.url ?? undefined) : undefined}
            className="flex-1"
          />
          <button type="submit" className={`${buttonClass.primary} sm:mb-[1.6rem]`} disabled={busy}>
            Submit video
          </button>
        </Form>
      ) : (
        <Form method="post" className="mt-4 space-y-2">
          <input type="hidden" name="intent" value="join" />
          <input type="hidden" name="campaignId" value={c.id} />
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input type="checkbox" name="accept" required className="mt-1 h-4 w-4" />
            <span>{CAMPAIGN_TERMS}</span>
          </label>
          {f?.intent === "join" && f.errors.accept ? <p className="text-sm text-red-700">{f.errors.accept}</p> : null}
          <button type="submit" className={buttonClass.primary} disabled={busy}>
            Join campaign
          </button>
        </Form>
      )}
    </article>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
