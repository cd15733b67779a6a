import { Form, Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { GrowthChart } from "~/modules/growth/components/growth-chart";
import { GrowthChartFunnel, InactivePeople, RetentionCohorts, RetentionSources } from "~/modules/growth/components/retention-tables";
import { notifyInactive, refreshRetention, retentionPage } from "~/modules/growth/growth.server";
import { GROWTH_MESSAGES as M, INACTIVE_DAY_CHOICES, RETENTION_WEEK_RANGES, SOURCE_LABELS } from "~/modules/growth/messages";
import { retentionActionSchema, retentionQuerySchema } from "~/modules/growth/schema";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { useActionFailure } from "~/ui/action-failure";
import { buttonClass } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import type { Route } from "./+types/user-retention";

// /user-retention (issue 18, admins): sign-ups per ISO week (UTC), the funnel with conversions,
// weekly active users, cohorts, sources, and the inactive users with 'notify' and CSV export.

export const meta = () => [{ title: "User Retention | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  const query = retentionQuerySchema.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  return retentionPage(actorOf(admin), query);
});

export const action = domainAction(
  async (args: Route.ActionArgs) => {
    const admin = await requireAdmin(args);
    const input = await parseForm(args.request, retentionActionSchema);
    const back = `/user-retention${new URL(args.request.url).search}`;
    if (input.intent === "refresh") {
      await refreshRetention(actorOf(admin), args.request);
      return redirectWithToast(args.request, back, {
        type: "success",
        title: "Figures refreshed",
        description: "Every figure on this page is computed as of now.",
      });
    }
    const { sent, skipped } = await notifyInactive(actorOf(admin), args.request, input);
    if (sent === 0) return redirectWithToast(args.request, back, { type: "info", title: "Nobody notified", description: M.notifyNone });
    return redirectWithToast(args.request, back, {
      type: "success",
      title: "Notified",
      description: skipped > 0 ? `${M.notifySent(sent)} ${M.notifySkipped(skipped)}` : M.notifySent(sent),
    });
  },
  { notify: "Not notified", refresh: "Figures not refreshed" },
);

export default function UserRetention({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const f = d.filters;
  const failure = useActionFailure(actionData);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="User Retention" description="Sign-ups, the funnel, weekly active users and cohorts. Weeks are ISO weeks in UTC." />
      <p className="-mt-2 mb-4 text-sm text-slate-600" data-testid="retention-computed-at">
        {d.computedAt ? (
          <>
            Figures computed at <LocalTime iso={d.computedAt} withTime />, daily and on 'Refresh figures now'.
          </>
        ) : (
          <>Figures not computed yet: they are computed daily, or now with 'Refresh figures now' at the bottom of the page.</>
        )}
      </p>

      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-label="Filters">
        <Select
          label="Weeks"
          name="weeks"
          defaultValue={String(f.weeks)}
          options={RETENTION_WEEK_RANGES.map((w) => ({ value: String(w), label: `Last ${w} weeks` }))}
          className="w-40"
        />
        <Select
          label="Source"
          name="source"
          defaultValue={f.source}
          options={[{ value: "all", label: "All sources" }, ...(["direct", "referral", "agency"] as const).map((s) => ({ value: s, label: SOURCE_LABELS[s] }))]}
          className="w-40"
        />
        <Select
          label="Inactive for"
          name="inactiveDays"
          defaultValue={String(f.inactiveDays)}
          options={[...new Set([...INACTIVE_DAY_CHOICES, f.inactiveDays])].sort((a, b) => a - b).map((n) => ({ value: String(n), label: `${n} days` }))}
          className="w-36"
        />
        <Select
          label="Status"
          name="status"
          defaultValue={f.status}
          options={[
            { value: "all", label: "Any status" },
            { value: "pending", label: "Pending" },
            { value: "approved", label: "Approved" },
            { value: "rejected", label: "Rejected" },
          ]}
          className="w-36"
        />
        <button type="submit" className={buttonClass.primary}>
          Apply filters
        </button>
      </Form>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <GrowthChart
          title="Sign-ups per week"
          stacked
          rows={d.signups.map((s) => ({ label: s.label, direct: s.direct, referral: s.referral, agency: s.agency, total: s.total }))}
          series={[
            { key: "direct", label: "Direct" },
            { key: "referral", label: "Referral" },
            { key: "agency", label: "Agency" },
          ]}
        />
        <GrowthChart
          title="Weekly active users"
          kind="line"
          rows={d.wau.map((w) => ({ label: w.label, active: w.active }))}
          series={[{ key: "active", label: "Active users" }]}
        />
      </div>

      <Section id="funnel-heading" title="Funnel" className="mt-8">
        <p className="mt-1 text-sm text-slate-600">
          People who signed up in the selected weeks{f.source === "all" ? "" : ` (${SOURCE_LABELS[f.source]})`}, by the furthest step reached.
        </p>
        <GrowthChartFunnel funnel={d.funnel} />
      </Section>

      <RetentionCohorts cohorts={d.cohorts} />
      <RetentionSources sources={d.sources} />
      <InactivePeople filters={f} inactive={d.inactive} failure={failure} />
      <Form method="post" className="mt-8 flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="refresh" />
        <button type="submit" className={buttonClass.secondary}>
          Refresh figures now
        </button>
      </Form>
      <p className="mt-2 text-xs text-slate-600">
        Every figure is computed from one snapshot, daily
        {d.computedAt ? (
          <>
            {" "}
            (last at <LocalTime iso={d.computedAt} withTime />)
          </>
        ) : null}
        . A person is active in a week when they used the product or signed up in it.{" "}
        <Link to="/admin/settings" className="underline">
          Referral bonus setting
        </Link>
      </p>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
