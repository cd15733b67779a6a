import { Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { formatCount } from "~/lib/format";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import {
  adminCampaigns,
  createCampaign,
  endCampaign,
  launchCampaign,
  markCampaignFundsReceived,
  reviewCampaignSubmission,
  settleCampaign,
  updateCampaign,
} from "~/modules/campaigns/campaigns.server";
import { adminCampaignHref, CampaignDetail, CampaignForm, STATE_TONE } from "~/modules/campaigns/components/admin-campaigns";
import { YouTubeApiNotice } from "~/modules/campaigns/components/youtube-api-notice";
import { CAMPAIGN_CONFIRM, CAMPAIGN_TITLES, type CampaignConfirm } from "~/modules/campaigns/messages";
import { formatRate, STATE_LABELS } from "~/modules/campaigns/rules";
import { campaignAdminSchema } from "~/modules/campaigns/schema";
import { formatPayoutDay } from "~/modules/payments/calendar";
import { formatCents } from "~/modules/payments/money";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";
import { Badge } from "~/ui/badge";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { DataTable, Td } from "~/ui/table";
import type { Route } from "./+types/campaigns";

// The admin console's campaigns (issue 15): create and edit, launch, end early, review the
// submissions (approve with verified views, update views, reject with a reason), settle (the
// approved amounts go to the ledger) and mark the brand's funds received. Every action is
// audit-logged by the module. The 60-day payout deadline is warned about as it nears.
// docs/decisions/0140.

export const meta = () => [{ title: "Campaigns | Admin | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  const url = new URL(args.request.url);
  const selected = url.searchParams.get("campaign");
  const confirmRaw = url.searchParams.get("confirm") ?? "";
  const confirm = Object.hasOwn(CAMPAIGN_CONFIRM, confirmRaw) ? (confirmRaw as CampaignConfirm) : null;
  return { ...(await adminCampaigns(actorOf(admin), selected && /^[0-9a-f-]{36}$/i.test(selected) ? selected : null)), confirm };
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const actor = actorOf(admin);
  const { request } = args;
  const input = await parseForm(request, campaignAdminSchema);
  const selected = new URL(request.url).searchParams.get("campaign") ?? undefined;
  const ok = (title: string, description: string, id = selected) => redirectWithToast(request, adminCampaignHref(id), { type: "success", title, description });
  switch (input.intent) {
    case "create": {
      const { id } = await createCampaign(actor, request, input);
      return ok("Campaign created", `"${input.title}" is a draft. Launch it when it is ready.`, id);
    }
    case "update":
      await updateCampaign(actor, request, input.id, input);
      return ok("Campaign saved", `"${input.title}" was updated.`, input.id);
    case "launch": {
      const { state } = await launchCampaign(actor, request, input.id);
      return ok("Campaign launched", state === "live" ? "It is live now." : "It goes live at its start date.", input.id);
    }
    case "end":
      await endCampaign(actor, request, input.id);
      return ok("Campaign ended", "Its participants have been told.", input.id);
    case "settle": {
      const done = await settleCampaign(actor, request, input.id);
      return ok(
        "Campaign settled",
        `${done.entries} ledger entries, ${formatCents(done.totalCents)}. ${done.payableOn ? `Payable on ${formatPayoutDay(done.payableOn)}.` : "Payable once the brand's funds are marked received."}`,
        input.id,
      );
    }
    case "funds_received": {
      const done = await markCampaignFundsReceived(actor, request, input.id);
      return ok(
        "Funds received",
        done.payableOn ? `The entries are payable on ${formatPayoutDay(done.payableOn)}.` : "The entries are payable once the campaign is settled.",
        input.id,
      );
    }
    case "approve":
    case "views": {
      const done = await reviewCampaignSubmission(actor, request, input.submissionId, { kind: input.intent, views: input.views });
      return ok(
        input.intent === "approve" ? "Submission approved" : "Views updated",
        `${formatCount(done.views)} views: ${formatCents(done.amountCents)}${done.capped ? " (capped: budget reached)" : ""}.`,
      );
    }
    case "reject":
      await reviewCampaignSubmission(actor, request, input.submissionId, { kind: "reject", reason: input.reason });
      return ok("Submission rejected", "The creator has been told why.");
  }
}, CAMPAIGN_TITLES);

export default function AdminCampaigns({ loaderData, actionData }: Route.ComponentProps) {
  const { campaigns, selected, tracks, confirm, youtube } = loaderData;
  const failure = useActionFailure(actionData);
  const warnings = campaigns.filter((c) => c.deadlineWarning !== null);

  return (
    <>
      <PageHeader title="Campaigns" description="Paid promotions: create, launch, review submissions, settle, and pay out within 60 days of the end." />
      <FailureAlert failure={failure} />
      <YouTubeApiNotice apiKey={youtube.apiKey} pausedUntil={youtube.pausedUntil} />
      {warnings.length > 0 ? (
        <div role="status" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          <p className="font-semibold">Payout deadlines</p>
          <ul className="mt-1 list-disc pl-5">
            {warnings.map((c) => (
              <li key={c.id}>
                <Link to={adminCampaignHref(c.id)} className="underline">
                  {c.title}
                </Link>
                : must be paid by {formatPayoutDay(c.deadline)} (
                {(c.deadlineWarning ?? 0) < 0 ? `${-(c.deadlineWarning ?? 0)} days overdue` : `${c.deadlineWarning} days left`}).{" "}
                {c.state === "ended" ? "Settle it" : "Mark the brand's funds received"} to make it payable.
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <Section id="all-campaigns" title="All campaigns">
        {campaigns.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No campaigns yet. Create the first one below.</p>
        ) : (
          <DataTable
            labelledBy="all-campaigns"
            className="mt-3"
            columns={["Campaign", "State", "Rate", "Budget spent", "Runs", "People", "Pending"]}
            rows={campaigns}
            rowKey={(c) => c.id}
            rowProps={(c) => ({ className: selected?.id === c.id ? "bg-slate-50" : undefined })}
          >
            {(c) => (
              <>
                <Td className="font-medium">
                  <Link to={adminCampaignHref(c.id)} className="text-brand-700 underline" aria-current={selected?.id === c.id ? "true" : undefined}>
                    {c.title}
                  </Link>
                  <div className="text-xs text-slate-500">
                    {c.brand} · /campaigns/{c.slug}
                  </div>
                </Td>
                <Td>
                  <Badge tone={STATE_TONE[c.state]}>{STATE_LABELS[c.state]}</Badge>
                </Td>
                <Td className="whitespace-nowrap">{formatRate(c.rateCents)}</Td>
                <Td className="whitespace-nowrap">
                  {formatCents(c.spentCents)} of {formatCents(c.budgetCents)}
                  {c.spentCents >= c.budgetCents ? (
                    <div>
                      <Badge tone="amber">Budget reached</Badge>
                    </div>
                  ) : null}
                </Td>
                <Td>
                  <LocalTime iso={c.startsAt} /> – <LocalTime iso={c.effectiveEnd} />
                </Td>
                <Td>{c.participants}</Td>
                <Td>{c.pending}</Td>
              </>
            )}
          </DataTable>
        )}
      </Section>

      {selected ? <CampaignDetail c={selected} tracks={tracks} failure={failure} confirm={confirm} /> : null}

      <Section id="new-campaign" title="New campaign" className="mt-10">
        <CampaignForm intent="create" tracks={tracks} failure={failure?.intent === "create" ? failure : null} />
      </Section>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
