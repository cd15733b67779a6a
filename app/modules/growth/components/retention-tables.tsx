import { useState } from "react";
import { Form, useNavigation } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { ApprovalBadge } from "~/ui/badge";
import { Button, buttonClass } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import { Pagination } from "~/ui/pagination";
import { Section } from "~/ui/section";
import { DataTable, Table, TableBody, TableHead, TableRegion, Td } from "~/ui/table";
import { SOURCE_LABELS } from "../messages";
import type { RetentionPage } from "../types";
import { GrowthChart } from "./growth-chart";

// The tables of /user-retention (issue 18): the funnel with its conversions, the cohorts, the
// sources, and the inactive people with 'notify' and the CSV export. The route
// (app/routes/admin/user-retention.tsx) loads, acts, and lays out the filters and charts.

/** The page's query for these filters, with a change (a page, say). */
export function retentionQueryString(f: RetentionPage["filters"], change: Partial<RetentionPage["filters"]> = {}): string {
  const next = { ...f, ...change };
  const p = new URLSearchParams({ weeks: String(next.weeks), source: next.source, inactiveDays: String(next.inactiveDays), status: next.status });
  if (next.page > 1) p.set("page", String(next.page));
  return `?${p.toString()}`;
}

export function GrowthChartFunnel({ funnel }: { funnel: RetentionPage["funnel"] }) {
  return (
    <div className="mt-3 space-y-4">
      <GrowthChart
        title="Funnel"
        firstColumn="Step"
        rows={funnel.map((s) => ({ label: s.label, count: s.count }))}
        series={[{ key: "count", label: "People" }]}
      />
      <DataTable
        label="Funnel conversions"
        columns={["Step", { label: "People", className: "text-right" }, { label: "Of the step before", className: "text-right" }]}
        rows={funnel}
        rowKey={(s) => s.key}
        rowProps={(s) => ({ "data-testid": `funnel-${s.key}` })}
      >
        {(s) => (
          <>
            <Td className="font-medium text-slate-900">{s.label}</Td>
            <Td className="text-right tabular-nums">{s.count}</Td>
            <Td className="text-right tabular-nums">{s.conversion === null ? "—" : `${s.conversion}%`}</Td>
          </>
        )}
      </DataTable>
    </div>
  );
}

/** Rows: sign-up week; columns: weeks since sign-up; cells: % of the cohort active that week. */
export function RetentionCohorts({ cohorts }: { cohorts: RetentionPage["cohorts"] }) {
  return (
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
              ...(cohorts[0]?.cells ?? []).map((cell) => ({ key: `w${cell.weeksSince}`, label: `Week ${cell.weeksSince}`, className: "text-right" })),
            ]}
          />
          <TableBody>
            {cohorts.map((c) => (
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
  );
}

export function RetentionSources({ sources }: { sources: RetentionPage["sources"] }) {
  return (
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
            {sources.map((s) => (
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
  );
}

/** The people inactive for the chosen days, to select and notify (once per person per week). */
export function InactivePeople({
  filters: f,
  inactive,
  failure,
}: {
  filters: RetentionPage["filters"];
  inactive: RetentionPage["inactive"];
  failure: ActionFailure | null;
}) {
  const navigation = useNavigation();
  const [selected, setSelected] = useState<string[]>([]);
  const selectable = inactive.rows.filter((r) => !r.notifiedThisWeek).map((r) => r.id);
  // After a notify, the page's rows change: a choice that is no longer selectable is dropped.
  const chosen = selected.filter((id) => selectable.includes(id));
  const allSelected = selectable.length > 0 && selectable.every((id) => chosen.includes(id));

  return (
    <Section id="inactive-heading" title={`Inactive for ${f.inactiveDays} days`} className="mt-8">
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">
          No sign-in or use for {f.inactiveDays} days. 'Notify' sends a notification and an e-mail, once per person per week.
        </p>
        <a className={buttonClass.secondary} href={`/user-retention/inactive.csv${retentionQueryString(f)}`} download>
          Export CSV
        </a>
      </div>
      {inactive.rows.length === 0 ? (
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
                {inactive.rows.map((r) => (
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
        pageCount={Math.max(1, Math.ceil(inactive.total / inactive.pageSize))}
        total={inactive.total}
        hrefFor={(page) => retentionQueryString(f, { page })}
        label="inactive users"
      />
    </Section>
  );
}
