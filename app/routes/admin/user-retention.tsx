import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { GrowthChart } from "~/modules/growth/components/growth-chart";
import { notifyInactive, refreshRetention, retentionPage } from "~/modules/growth/growth.server";
import { GROWTH_MESSAGES as M, INACTIVE_DAY_CHOICES, RETENTION_WEEK_RANGES, SOURCE_LABELS } from "~/modules/growth/messages";
import { retentionActionSchema, retentionQuerySchema } from "~/modules/growth/schema";
import type { RetentionPage } from "~/modules/growth/types";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ApprovalBadge } from "~/ui/badge";
import { Button, buttonClass } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Pagination } from "~/ui/pagination";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import { Table, TableBody, TableHead, TableRegion, Td } from "~/ui/table";
import type { Route } from "./+types/user-retention";
import { useActionFailure } from "~/ui/action-failure";

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

function queryString(f: RetentionPage["filters"], change: Partial<RetentionPage["filters"]> = {}): string {
  const next = { ...f, ...change };
  const p = new URLSearchParams({ weeks: String(next.weeks), source: next.source, inactiveDays: String(next.inactiveDays), status: next.status });
  if (next.page > 1) p.set("page", String(next.page));
  return `?${p.toString()}`;
}

export default function UserRetention({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const f = d.filters;
  const failure = useActionFailure(actionData);
  const navigation = useNavigation();
  const [selected, setSelected] = useState<string[]>([]);
  const selectable = d.inactive.rows.filter((r) => !r.notifiedThisWeek).map((r) => r.id);
  // After a notify, the page's rows change: a choice that is no longer selectable is dropped.
  const chosen = selected.filter((id) => selectable.includes(id));
  const allSelected = selectable.length > 0 && selectable.every((id) => chosen.includes(id));

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

      <Section id="cohorts-heading" title="Cohorts" className="mt-8">
        <p className="mt-1 text-sm text-slate-600">
          Rows: sign-up week. Columns: weeks since sign-up. Cells: % of the cohort active that week (signing up counts, so week 0 is 100%).
        </p>
        <TableRegion labelledBy="cohorts-heading" className="mt-3">
          <Table caption="Cohort retention: rows are sign-up weeks, columns weeks since sign-up">
            <TableHead
              columns={[
                "Sign-up week",
                { label: "People", className: "text-right" },
                ...d.cohorts[0].cells.map((cell) => ({ key: `w${cell.weeksSince}`, label: `Week ${cell.weeksSince}`, className: "text-right" })),
              ]}
            />
            <TableBody>
              {d.cohorts.map((c) => (
                <tr key={c.cohort} data-testid={`cohort-${c.label}`}>
                  <Td className="whitespace-nowrap font-medium text-slate-900">{c.label}</Td>
                  <Td className="text-right tabular-nums">{c.size}</Td>
                  {c.cells.map(({ weeksSince, active, pct }) => (
                    <Td
                      key={weeksSince}
                      className="text-right tabular-nums"
                      title={active === null ? undefined : `${active} of ${c.size}`}
                      style={pct === null ? undefined : { backgroundColor: `rgba(16, 185, 129, ${Math.min(0.35, pct / 250)})` }}
                    >
                      {pct === null ? "" : `${pct}%`}
                    </Td>
                  ))}
                </tr>
              ))}
            </TableBody>
          </Table>
        </TableRegion>
      </Section>

      <Section id="sources-heading" title="By source" className="mt-8">
        <TableRegion labelledBy="sources-heading" className="mt-3">
          <Table>
            <TableHead
              columns={[
                "Source",
                { label: "Signed up", className: "text-right" },
                { label: "Approved", className: "text-right" },
                { label: "Channel linked", className: "text-right" },
                { label: "Earning", className: "text-right" },
              ]}
            />
            <TableBody>
              {d.sources.map((s) => (
                <tr key={s.source}>
                  <Td className="font-medium text-slate-900">{SOURCE_LABELS[s.source]}</Td>
                  <Td className="text-right tabular-nums">{s.signedUp}</Td>
                  <Td className="text-right tabular-nums">{s.approved}</Td>
                  <Td className="text-right tabular-nums">{s.channelLinked}</Td>
                  <Td className="text-right tabular-nums">{s.earning}</Td>
                </tr>
              ))}
            </TableBody>
          </Table>
        </TableRegion>
      </Section>

      <Section id="inactive-heading" title={`Inactive for ${f.inactiveDays} days`} className="mt-8">
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600">
            No sign-in or use for {f.inactiveDays} days. 'Notify' sends a notification and an e-mail, once per person per week.
          </p>
          <a className={buttonClass.secondary} href={`/user-retention/inactive.csv${queryString(f)}`} download>
            Export CSV
          </a>
        </div>
        {d.inactive.rows.length === 0 ? (
          <p className="mt-4 text-sm text-slate-700">Nobody matches these filters.</p>
        ) : (
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="notify" />
            <input type="hidden" name="inactiveDays" value={f.inactiveDays} />
            <TableRegion labelledBy="inactive-heading">
              <Table>
                <TableHead
                  columns={[
                    {
                      label: (
                        <label className="inline-flex items-center gap-2">
                          <input
                            type="checkbox"
                            checked={allSelected}
                            onChange={(e) => setSelected(e.target.checked ? selectable : [])}
                            disabled={selectable.length === 0}
                          />
                          <span className="sr-only">Select everyone on this page</span>
                        </label>
                      ),
                    },
                    "Name",
                    "E-mail",
                    "Status",
                    "Source",
                    "Joined",
                    "Last active",
                    "Notified",
                  ]}
                />
                <TableBody>
                  {d.inactive.rows.map((r) => (
                    <tr key={r.id}>
                      <Td>
                        <input
                          type="checkbox"
                          name="userIds"
                          value={r.id}
                          aria-label={`Select ${r.name}`}
                          disabled={r.notifiedThisWeek}
                          checked={chosen.includes(r.id)}
                          onChange={(e) => setSelected((s) => (e.target.checked ? [...s, r.id] : s.filter((x) => x !== r.id)))}
                        />
                      </Td>
                      <Td className="font-medium text-slate-900">{r.name}</Td>
                      <Td className="break-all">{r.email}</Td>
                      <Td>
                        <ApprovalBadge status={r.status} />
                      </Td>
                      <Td>{SOURCE_LABELS[r.source]}</Td>
                      <Td>
                        <LocalTime iso={r.joinedAt} />
                      </Td>
                      <Td>{r.lastActive ?? "Never"}</Td>
                      <Td>{r.notifiedThisWeek ? "This week" : "—"}</Td>
                    </tr>
                  ))}
                </TableBody>
              </Table>
            </TableRegion>
            <div className="mt-3 flex flex-wrap items-center gap-3">
              <Button type="submit" variant="primary" disabled={chosen.length === 0 || navigation.state === "submitting"}>
                {navigation.state === "submitting" ? "Notifying..." : chosen.length ? `Notify ${chosen.length} selected` : "Notify selected"}
              </Button>
              {failure?.errors?.userIds ? <p className="text-sm text-red-700">{failure.errors.userIds}</p> : null}
            </div>
          </Form>
        )}
        <Pagination
          page={f.page}
          pageCount={Math.max(1, Math.ceil(d.inactive.total / d.inactive.pageSize))}
          total={d.inactive.total}
          hrefFor={(page) => queryString(f, { page })}
          label="inactive users"
        />
      </Section>
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

function GrowthChartFunnel({ funnel }: { funnel: RetentionPage["funnel"] }) {
  return (
    <div className="mt-3 space-y-4">
      <GrowthChart
        title="Funnel"
        firstColumn="Step"
        rows={funnel.map((s) => ({ label: s.label, count: s.count }))}
        series={[{ key: "count", label: "People" }]}
      />
      <TableRegion label="Funnel conversions">
        <Table>
          <TableHead columns={["Step", { label: "People", className: "text-right" }, { label: "Of the step before", className: "text-right" }]} />
          <TableBody>
            {funnel.map((s) => (
              <tr key={s.key} data-testid={`funnel-${s.key}`}>
                <Td className="font-medium text-slate-900">{s.label}</Td>
                <Td className="text-right tabular-nums">{s.count}</Td>
                <Td className="text-right tabular-nums">{s.conversion === null ? "—" : `${s.conversion}%`}</Td>
              </tr>
            ))}
          </TableBody>
        </Table>
      </TableRegion>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
