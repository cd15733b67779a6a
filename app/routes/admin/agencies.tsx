import { useEffect } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { toast } from "~/ui/toaster";
import { DomainError, isActionFailure } from "~/lib/errors";
import { pageUrl } from "~/lib/page-url";
import { ConfirmActions, ConfirmReason } from "~/modules/admin/components/console";
import { agencyActionSchema, uuidSchema } from "~/modules/admin/schema";
import { AGENCY_ACTIONS, AGENCY_ACTION_LABELS, AGENCY_FILTERS, type AgencyAction, type AgencyFilter } from "~/modules/admin/messages";
import { AGENCY_MESSAGES } from "~/modules/agencies/messages";
import { ApprovalBadge, Badge } from "~/ui/badge";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { Pagination } from "~/ui/pagination";
import { buttonClass } from "~/ui/button";
import { formatDate } from "~/lib/dates";
import { hrefWith } from "~/lib/href";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Card } from "~/ui/card";
import { PageHeader } from "~/ui/page-header";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { listAgenciesForAdmin, reviewAgency, setAgencyStatus } from "~/modules/agencies/agencies.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/agencies";

export const meta = () => [{ title: "Agencies | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  const url = new URL(args.request.url);
  const filterRaw = url.searchParams.get("status") ?? "all";
  const filter = ((AGENCY_FILTERS as readonly string[]).includes(filterRaw) ? filterRaw : "all") as AgencyFilter;
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const confirmRaw = url.searchParams.get("confirm");
  const confirm = (AGENCY_ACTIONS as readonly string[]).includes(confirmRaw ?? "") ? (confirmRaw as AgencyAction) : null;
  const selected = uuidSchema.safeParse(url.searchParams.get("agency") ?? "");
  try {
    const list = await listAgenciesForAdmin(actorOf(admin), filter, page);
    return { ...list, filter, confirm, selectedId: selected.success ? selected.data : null, failed: false };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // The spec's helper message, shown instead of the list.
    console.error("listing agencies failed", error);
    return { agencies: [], total: 0, page, pageCount: 1, filter, confirm: null, selectedId: null, failed: true };
  }
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const input = await parseForm(args.request, agencyActionSchema);
  const actor = actorOf(admin);
  const message =
    input.intent === "approve"
      ? await reviewAgency(actor, input.agencyId, { approve: true }, args.request)
      : input.intent === "reject"
        ? await reviewAgency(actor, input.agencyId, { approve: false, reason: input.reason }, args.request)
        : await setAgencyStatus(actor, input.agencyId, input.intent === "activate" ? "active" : "inactive", args.request);
  return redirectWithToast(args.request, pageUrl(args.request, { confirm: null, agency: null }), {
    type: "success",
    title: AGENCY_ACTION_LABELS[input.intent].label,
    description: message,
  });
}, AGENCY_MESSAGES.update);

function actionsFor(a: { approvalStatus: string; status: string }): AgencyAction[] {
  const out: AgencyAction[] = [];
  if (a.approvalStatus !== "approved") out.push("approve");
  if (a.approvalStatus === "pending") out.push("reject");
  if (a.approvalStatus === "approved") out.push(a.status === "active" ? "deactivate" : "activate");
  return out;
}

export default function AdminAgencies({ loaderData, actionData }: Route.ComponentProps) {
  const { agencies, total, page, pageCount, filter, confirm, selectedId, failed } = loaderData;
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (failed) toast.error(AGENCY_MESSAGES.fetch);
  }, [failed]);
  useEffect(() => {
    if (isActionFailure(actionData)) toast.error(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);
  const selected = agencies.find((a) => a.id === selectedId) ?? null;

  return (
    <>
      <PageHeader title="Agencies" description="Review applications; activate or deactivate approved agencies." />
      <nav aria-label="Filter agencies" className="mb-4 flex flex-wrap gap-2">
        {AGENCY_FILTERS.map((f) => (
          <Link
            key={f}
            to={hrefWith(pathname, "", { status: f === "all" ? null : f })}
            aria-current={filter === f ? "page" : undefined}
            className={filter === f ? buttonClass.primary : buttonClass.secondary}
          >
            {f === "all" ? "All" : f.charAt(0).toUpperCase() + f.slice(1)}
          </Link>
        ))}
      </nav>

      {failed ? (
        <Card>
          <p role="alert" className="text-red-800">
            {AGENCY_MESSAGES.fetch}
          </p>
        </Card>
      ) : agencies.length === 0 ? (
        <Card>
          <p className="text-slate-700">No agencies here.</p>
        </Card>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2">
          {agencies.map((a) => (
            <li key={a.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-4">
              <div className="flex items-start gap-3">
                {a.logoUrl ? (
                  <img src={a.logoUrl} alt="" className="h-12 w-12 shrink-0 rounded-lg border border-slate-200 object-cover" />
                ) : (
                  <span aria-hidden="true" className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-slate-800 font-bold text-white">
                    {a.name.slice(0, 1).toUpperCase()}
                  </span>
                )}
                <div className="min-w-0 flex-1">
                  <h2 className="font-semibold break-words text-slate-900">{a.name}</h2>
                  <p className="font-mono text-sm break-all text-slate-600">/{a.slug}</p>
                  <div className="mt-1 flex flex-wrap gap-1">
                    <ApprovalBadge status={a.approvalStatus} />
                    <Badge tone={a.status === "active" ? "green" : "slate"}>{a.status === "active" ? "Active" : "Inactive"}</Badge>
                  </div>
                </div>
              </div>
              <dl className="mt-3 grid gap-1 text-sm text-slate-700">
                <div className="flex gap-2">
                  <dt className="text-slate-500">Contact</dt>
                  <dd className="break-all">{a.contactEmail}</dd>
                </div>
                <div className="flex gap-2">
                  <dt className="text-slate-500">Applicant</dt>
                  <dd className="break-all">{a.ownerEmail ? `${a.ownerName ?? ""} ${a.ownerEmail}`.trim() : "—"}</dd>
                </div>
                <div className="flex gap-2">
                  <dt className="text-slate-500">Applied</dt>
                  <dd>
                    {formatDate(a.createdAt)} · {a.managerCount} manager{a.managerCount === 1 ? "" : "s"} · {a.creatorCount} creator
                    {a.creatorCount === 1 ? "" : "s"}
                  </dd>
                </div>
              </dl>
              {a.description ? <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-700">{a.description}</p> : null}
              {a.approvalStatus === "rejected" && a.rejectionReason ? (
                <p className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
                  <span className="font-semibold">Rejection reason:</span> {a.rejectionReason}
                </p>
              ) : null}
              <div className="mt-auto flex flex-wrap gap-2 pt-3">
                {actionsFor(a).map((intent) => (
                  <Link
                    key={intent}
                    to={hrefWith(pathname, search, { agency: a.id, confirm: intent })}
                    preventScrollReset
                    className={AGENCY_ACTION_LABELS[intent].danger ? buttonClass.dangerOutline : buttonClass.secondary}
                    aria-label={`${AGENCY_ACTION_LABELS[intent].label} ${a.name}`}
                  >
                    {AGENCY_ACTION_LABELS[intent].label}
                  </Link>
                ))}
                {a.approvalStatus === "approved" ? (
                  <Link to={`/agency-dashboard?agency=${a.id}`} className={buttonClass.secondary} aria-label={`Open the dashboard of ${a.name}`}>
                    Dashboard
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        pageCount={pageCount}
        total={total}
        label="agencies"
        singular="agency"
        hrefFor={(p) => hrefWith(pathname, search, { page: p, confirm: null })}
      />

      {selected && confirm ? (
        <AgencyConfirm
          agency={selected}
          intent={confirm}
          cancelTo={hrefWith(pathname, search, { confirm: null, agency: null })}
          error={isActionFailure(actionData) ? (actionData.errors.reason ?? actionData.toast.description) : undefined}
        />
      ) : null}
    </>
  );
}

function AgencyConfirm({ agency, intent, cancelTo, error }: { agency: { id: string; name: string }; intent: AgencyAction; cancelTo: string; error?: string }) {
  const navigation = useNavigation();
  const meta = AGENCY_ACTION_LABELS[intent];
  return (
    <ConfirmDialog title={`${meta.label}: ${agency.name}`} cancelTo={cancelTo}>
      <Form method="post" preventScrollReset>
        <p className="text-sm text-slate-700">{meta.confirm}</p>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="agencyId" value={agency.id} />
        <input type="hidden" name="confirm" value="yes" />
        {intent === "reject" ? <ConfirmReason id="agency-reason" label="Reason (the applicant sees it)" error={error} errorId="agency-error" /> : null}
        <ConfirmActions cancelTo={cancelTo} danger={meta.danger} disabled={navigation.state === "submitting"} error={error} errorId="agency-error">
          {`Confirm ${meta.label.toLowerCase()}`}
        </ConfirmActions>
      </Form>
    </ConfirmDialog>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
