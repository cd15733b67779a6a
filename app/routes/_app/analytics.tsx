import { Download, TrendingDown, TrendingUp } from "~/ui/icons";
import { ScrollRegion, TableHead } from "~/ui/table";
import { Section } from "~/ui/section";
import { Link } from "react-router";
import { buttonClass } from "~/ui/button";
import { MetricChart, type ChartSeries } from "~/modules/channels/components/channel-chart";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";
import { formatCount } from "~/lib/format";
import { ANALYTICS_RANGES, METRICS, METRIC_LABELS, formatGrowth, parseRange, type Growth, type Metric } from "~/modules/channels/analytics";
import { analyticsFor } from "~/modules/channels/channels.server";
import { EarningsByMonth } from "~/modules/payments/components/earnings-by-month";
import { earningsByMonth } from "~/modules/payments/payments.server";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { domainLoader } from "~/platform/http.server";
import type { Route } from "./+types/analytics";

export const meta = () => [{ title: "Analytics | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  const range = parseRange(new URL(args.request.url).searchParams.get("range"));
  const [data, earnings] = await Promise.all([analyticsFor(actorOf(user), range), earningsByMonth(actorOf(user))]);
  return { ...data, earnings };
});

function GrowthText({ growth, range, compact = false }: { growth: Growth; range: number; compact?: boolean }) {
  if (growth.change === null) return <span className="text-slate-600">No change to compare yet</span>;
  const tone = growth.change > 0 ? "text-emerald-700" : growth.change < 0 ? "text-red-700" : "text-slate-600";
  const Icon = growth.change < 0 ? TrendingDown : TrendingUp;
  return (
    <span className={`inline-flex items-center gap-1 ${tone}`}>
      {growth.change !== 0 ? <Icon className="h-4 w-4" aria-hidden="true" /> : null}
      {formatGrowth(growth)}
      <span className={compact ? "sr-only" : "text-slate-600"}> in {range} days</span>
    </span>
  );
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const { range, days, channels, total, hasData, earnings } = loaderData;
  const earningsSection = <EarningsByMonth earnings={earnings} />;

  const rangeNav = (
    <nav aria-label="Date range" className="flex flex-wrap items-center gap-2">
      <ul className="flex rounded-md border border-slate-300 bg-white p-0.5">
        {ANALYTICS_RANGES.map((r) => (
          <li key={r}>
            <Link
              to={`?range=${r}`}
              preventScrollReset
              aria-current={r === range ? "page" : undefined}
              className={`block rounded px-3 py-1.5 text-sm font-medium ${r === range ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {r} days
            </Link>
          </li>
        ))}
      </ul>
      {channels.length > 0 ? (
        <a href={`/api/analytics.csv?range=${range}`} download className={buttonClass.secondary}>
          <Download className="h-4 w-4" aria-hidden="true" />
          Export CSV
        </a>
      ) : null}
    </nav>
  );

  const header = (
    <PageHeader title="Analytics" description="Subscribers, views and videos of your linked YouTube channels, from their daily snapshots." actions={rangeNav} />
  );

  if (channels.length === 0) {
    return (
      <>
        {header}
        <EmptyState title="No channels linked yet" action={{ to: "/channels", label: "Connect a channel" }}>
          <p>Link your YouTube channel on the Channels page to follow its subscribers, views and videos here.</p>
        </EmptyState>
        <div className="mt-8">{earningsSection}</div>
      </>
    );
  }

  if (!hasData) {
    return (
      <>
        {header}
        <EmptyState title={`No data in the last ${range} days`} action={{ to: "/channels", label: "Refresh your channels" }}>
          <p>A snapshot is recorded every time a channel is refreshed, and once a day automatically. Refresh your channels to record today's numbers.</p>
        </EmptyState>
        <div className="mt-8">{earningsSection}</div>
      </>
    );
  }

  // The total first (only when there is more than one channel), then each channel.
  const seriesFor = (): ChartSeries[] => [
    ...(channels.length > 1 ? [{ key: "total", label: "All channels", points: total.points }] : []),
    ...channels.map((c, i) => ({ key: `c${i}`, label: c.title, points: c.points })),
  ];
  const series = seriesFor();

  return (
    <div className="space-y-8">
      {header}

      <section aria-labelledby="totals-heading">
        <h2 id="totals-heading" className="sr-only">
          Totals
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {METRICS.map((m) => (
            <div key={m} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <p className="text-sm font-medium text-slate-600">
                {METRIC_LABELS[m]}
                {channels.length > 1 ? " (all channels)" : ""}
              </p>
              <p className="mt-1 text-3xl font-bold text-slate-900 tabular-nums">{formatCount(total.latest?.[m])}</p>
              <p className="mt-1 text-sm">
                <GrowthText growth={total.growth[m]} range={range} />
              </p>
            </div>
          ))}
        </div>
      </section>

      <Section id="charts-heading" title={`Over the last ${range} days`} className="space-y-4">
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {METRICS.map((m: Metric) => (
            <MetricChart key={m} title={`${METRIC_LABELS[m]} over the last ${range} days`} metric={m} days={days} series={series} />
          ))}
        </div>
      </Section>

      <Section id="by-channel-heading" title="By channel">
        <ScrollRegion labelledBy="by-channel-heading" className="mt-3">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Latest numbers and change over the last {range} days, per channel</caption>
            <TableHead
              className="bg-slate-50 text-left text-slate-700"
              cellClassName="px-4 py-2 font-semibold"
              columns={["Channel", ...METRICS.map((m) => ({ key: m, label: METRIC_LABELS[m], className: "text-right" }))]}
            />
            <tbody className="divide-y divide-slate-100">
              {[
                ...channels.map((c) => ({ key: c.id, label: c.title, handle: c.handle, s: c })),
                ...(channels.length > 1 ? [{ key: "total", label: "All channels", handle: null, s: total }] : []),
              ].map(({ key, label, handle, s }) => (
                <tr key={key} className={key === "total" ? "bg-slate-50 font-semibold" : undefined}>
                  <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                    {label}
                    {handle ? <span className="block text-xs font-normal text-slate-600">{handle}</span> : null}
                  </th>
                  {METRICS.map((m) => (
                    <td key={m} className="px-4 py-3 text-right tabular-nums">
                      <span className="block text-slate-900">{formatCount(s.latest?.[m])}</span>
                      <span className="block text-xs">
                        <GrowthText growth={s.growth[m]} range={range} compact />
                      </span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        <p className="mt-3 text-sm text-slate-600">
          Growth compares the first and the latest snapshot in the range. Manually submitted channels have no daily statistics and are not included.{" "}
          <Link to="/channels" className="font-medium text-slate-900 underline underline-offset-2">
            Manage channels
          </Link>
        </p>
      </Section>
      {earningsSection}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
