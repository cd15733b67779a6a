import { Form, useLocation } from "react-router";
import { FilterField } from "~/modules/admin/components/console";
import { auditQuerySchema } from "~/modules/admin/schema";
import { SEVERITY_FILTERS } from "~/modules/admin/messages";
import { Badge } from "~/ui/badge";
import { Pagination } from "~/ui/pagination";
import { buttonClass } from "~/ui/button";
import { formatDateTime } from "~/lib/dates";
import { hrefWith } from "~/lib/href";
import { inputClass } from "~/ui/field";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Card } from "~/ui/card";
import { PageHeader } from "~/ui/page-header";
import { listAuditLog } from "~/modules/admin/admin.server";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { domainLoader } from "~/platform/http.server";
import type { Route } from "./+types/audit-log";

export const meta = () => [{ title: "Security audit log | Shortbeat" }];

// Read-only: there is no action on this route, so nothing here can change the log.
export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  const query = auditQuerySchema.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  return { ...(await listAuditLog(actorOf(admin), query)), query };
});

const SEVERITY_TONE = { low: "slate", medium: "blue", high: "amber", critical: "red" } as const;

function detailsOf(row: { details: string }): [string, string][] {
  try {
    const parsed = JSON.parse(row.details) as Record<string, unknown>;
    return Object.entries(parsed)
      .filter(([k]) => k !== "timestamp")
      .map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
  } catch {
    return [];
  }
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, total, more, page, pageCount, query, eventTypes } = loaderData;
  const { pathname, search } = useLocation();
  return (
    <>
      <PageHeader title="Security audit log" description="Who did what, when (UTC) and from where. Read-only." />
      <Form
        method="get"
        role="search"
        className="mb-5 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_9rem_1fr_10rem_10rem_auto] lg:items-end"
      >
        <FilterField id="audit-type" label="Event type">
          <select id="audit-type" name="type" defaultValue={query.type} className={inputClass}>
            <option value="">All events</option>
            {eventTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField id="audit-severity" label="Severity">
          <select id="audit-severity" name="severity" defaultValue={query.severity} className={inputClass}>
            {SEVERITY_FILTERS.map((s) => (
              <option key={s} value={s}>
                {s === "all" ? "Any" : s.charAt(0).toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField id="audit-user" label="User e-mail">
          <input id="audit-user" name="user" type="search" defaultValue={query.user} maxLength={254} className={inputClass} placeholder="actor or target" />
        </FilterField>
        <FilterField id="audit-from" label="From (UTC)">
          <input id="audit-from" name="from" type="date" defaultValue={query.from} className={inputClass} />
        </FilterField>
        <FilterField id="audit-to" label="To (UTC)">
          <input id="audit-to" name="to" type="date" defaultValue={query.to} className={inputClass} />
        </FilterField>
        <button type="submit" className={buttonClass.primary}>
          Filter
        </button>
      </Form>

      {entries.length === 0 ? (
        <Card>
          <p className="text-slate-700">No events match these filters.</p>
        </Card>
      ) : (
        <ol className="space-y-2" aria-label="Audit events">
          {entries.map((e) => {
            const details = detailsOf(e);
            return (
              <li key={e.id} className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={SEVERITY_TONE[e.severity]}>{e.severity}</Badge>
                  <span className="font-mono font-semibold break-all text-slate-900">{e.eventType}</span>
                  <time dateTime={e.createdAt} className="ml-auto text-slate-600">
                    {formatDateTime(e.createdAt)}
                  </time>
                </div>
                <dl className="mt-2 grid gap-x-6 gap-y-1 text-slate-700 sm:grid-cols-2">
                  <div className="flex min-w-0 gap-2">
                    <dt className="text-slate-500">By</dt>
                    <dd className="min-w-0 break-all">{e.actorEmail ?? (e.userId ? e.userId : "anonymous")}</dd>
                  </div>
                  {e.targetUserId ? (
                    <div className="flex min-w-0 gap-2">
                      <dt className="text-slate-500">User</dt>
                      <dd className="min-w-0 break-all">{e.targetEmail ?? e.targetUserId}</dd>
                    </div>
                  ) : null}
                  <div className="flex min-w-0 gap-2">
                    <dt className="text-slate-500">From</dt>
                    <dd className="min-w-0 break-all">
                      {e.ip ?? "—"}
                      {e.path ? ` · ${e.path}` : ""}
                    </dd>
                  </div>
                  {e.userAgent ? (
                    <div className="flex min-w-0 gap-2">
                      <dt className="text-slate-500">Agent</dt>
                      <dd className="truncate" title={e.userAgent}>
                        {e.userAgent}
                      </dd>
                    </div>
                  ) : null}
                </dl>
                {details.length > 0 ? (
                  <details className="mt-2">
                    <summary className="cursor-pointer text-slate-700">Details</summary>
                    <dl className="mt-1 grid gap-1 rounded-md bg-slate-50 p-2 font-mono text-xs text-slate-800">
                      {details.map(([k, v]) => (
                        <div key={k} className="flex gap-2">
                          <dt className="shrink-0 text-slate-500">{k}</dt>
                          <dd className="min-w-0 break-all">{v}</dd>
                        </div>
                      ))}
                    </dl>
                  </details>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      <Pagination page={page} pageCount={pageCount} total={total} more={more} label="events" hrefFor={(p) => hrefWith(pathname, search, { page: p })} />
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
