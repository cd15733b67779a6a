import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { isActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { formatPayoutDay, monthLabel, monthOf } from "~/modules/payments/calendar";
import { formatCents } from "~/modules/payments/money";
import {
  agreementsOverview,
  commitImport,
  offerShare,
  setHold,
  terminateForCause,
  withdrawOffer,
  discardImport,
  finalizeMonth,
  markFundsReceived,
  markBatchPaid,
  markPayoutPaid,
  payoutBatches,
  paymentsBodyLimit,
  previewImport,
  revenueOverview,
} from "~/modules/payments/payments.server";
import { PAYMENT_TITLES, paymentsAdminSchema } from "~/modules/payments/schema";
import { formatBp } from "~/modules/payments/split";
import type { AgreementAdminRow, ImportPreview } from "~/modules/payments/types";
import { parseFields, readForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Badge, type Tone } from "~/ui/badge";
import { Button, buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { Table, TableBody, TableHead, TableRegion, Td } from "~/ui/table";
import { TextArea } from "~/ui/textarea";
import type { Route } from "./+types/payments";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";

// The admin console's money (issue 14, phase 1): import a month's platform revenue (preview, then
// commit all or nothing), mark its funds received, finalize it; the payout batches with 'mark paid'
// and the CSV for the bank. docs/decisions/0121, 0122.

export const meta = () => [{ title: "Payments | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  const actor = actorOf(admin);
  const [overview, payouts, agreements] = await Promise.all([revenueOverview(actor), payoutBatches(actor), agreementsOverview(actor)]);
  return { ...overview, payouts, agreements };
});

const BACK = "/admin/payments";
const AGREEMENTS = "/admin/payments#agreements-heading";

const IMPORT_STATUS: Record<"staged" | "live" | "replaced" | "discarded", { label: string; tone: Tone }> = {
  staged: { label: "Waiting to commit", tone: "amber" },
  live: { label: "Live", tone: "green" },
  replaced: { label: "Replaced", tone: "slate" },
  discarded: { label: "Discarded", tone: "slate" },
};

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const actor = actorOf(admin);
  const input = parseFields(await readForm(args.request, paymentsBodyLimit()), paymentsAdminSchema);
  switch (input.intent) {
    case "preview":
      return { ok: true as const, preview: await previewImport(actor, args.request, input) };
    case "commit": {
      const done = await commitImport(actor, args.request, input);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Revenue imported",
        description: `${monthLabel(done.month)}: ${done.entryCount} statement lines are live as estimated.`,
      });
    }
    case "discard":
      await discardImport(actor, args.request, input.importId);
      return redirectWithToast(args.request, BACK, { type: "success", title: "Import discarded", description: "Nothing was changed." });
    case "funds_received":
      await markFundsReceived(actor, args.request, input.month);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Funds received",
        description: `${monthLabel(input.month)} can now be finalized.`,
      });
    case "finalize": {
      const done = await finalizeMonth(actor, args.request, input.month);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Month finalized",
        description: `${monthLabel(input.month)}: ${done.entries} lines finalized. They are paid on the next payout day.`,
      });
    }
    case "mark_paid": {
      const done = await markPayoutPaid(actor, args.request, input);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Payout marked paid",
        description: `${formatCents(done.amountCents)} recorded as paid. The creator has been notified.`,
      });
    }
    case "mark_batch_paid": {
      const done = await markBatchPaid(actor, args.request, input);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Payout run marked paid",
        description: `${monthLabel(input.batch)}: ${done.paid} payouts, ${formatCents(done.amountCents)}, recorded as paid${done.alreadyPaid ? ` (${done.alreadyPaid} were already paid)` : ""}. The creators have been notified.`,
      });
    }
    case "offer_share": {
      const done = await offerShare(actor, args.request, { person: input.person, shareBp: input.sharePercent, note: input.note });
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Revised share offered",
        description: `${done.name} is offered ${formatBp(input.sharePercent)}. It applies once they accept it on their Payments page.`,
      });
    }
    case "withdraw_offer":
      await withdrawOffer(actor, args.request, input.offerId);
      return redirectWithToast(args.request, AGREEMENTS, { type: "success", title: "Offer withdrawn", description: "The current share stays." });
    case "terminate": {
      const done = await terminateForCause(actor, args.request, input);
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Agreement terminated",
        description: `${done.name}: terminated for cause with immediate effect. Nothing is earned after today.`,
      });
    }
    case "hold": {
      const done = await setHold(actor, args.request, { person: input.person, reason: input.reason });
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Payouts on hold",
        description: `${done.name}: the payout day leaves their balance alone.`,
      });
    }
    case "release_hold": {
      const done = await setHold(actor, args.request, { person: input.person, reason: null });
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Hold released",
        description: `${done.name} is paid on the next payout day.`,
      });
    }
  }
}, PAYMENT_TITLES);

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  const { months, imports, payouts, agreements } = loaderData;
  const failure = useActionFailure(actionData);
  const preview = actionData && !isActionFailure(actionData) && "preview" in actionData ? actionData.preview : null;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const batches = [...new Set(payouts.map((p) => p.batch))];

  return (
    <>
      <PageHeader title="Payments" description="Import a month's platform revenue, confirm the funds, finalize, and pay out." />
      <FailureAlert failure={failure} />

      <Section id="import-heading" title="Import revenue">
        <p className="mt-1 text-sm text-slate-600">
          CSV columns: month, channel_id or creator_id, video_id (optional), net_revenue (two decimals), currency (USD).
        </p>
        <Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3 sm:grid-cols-[13rem_1fr_auto] sm:items-end">
          <input type="hidden" name="intent" value="preview" />
          <Field
            label="Month"
            name="month"
            type="month"
            required
            defaultValue={preview?.month ?? failure?.values?.month ?? monthOf(new Date())}
            error={failure?.errors.month}
          />
          <Field label="Revenue file (CSV)" name="file" type="file" accept=".csv,text/csv" required error={failure?.errors.file} />
          <button type="submit" className={buttonClass.primary} disabled={busy}>
            Preview
          </button>
        </Form>
        {preview ? <PreviewPanel preview={preview} busy={busy} /> : null}
      </Section>

      <Section id="months-heading" title="Months" className="mt-10">
        {months.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No revenue imported yet.</p>
        ) : (
          <TableRegion labelledBy="months-heading" className="mt-3">
            <Table>
              <TableHead columns={["Month", "Net revenue", "Creators' share", "Status", { label: "Actions", className: "text-right" }]} />
              <TableBody>
                {months.map((m) => (
                  <tr key={m.month}>
                    <Td className="font-medium">{monthLabel(m.month)}</Td>
                    <Td>{m.netCents === null ? "—" : formatCents(m.netCents)}</Td>
                    <Td>
                      {m.amountCents === null ? "—" : formatCents(m.amountCents)}
                      {m.shareBp ? <span className="text-slate-500"> ({formatBp(m.shareBp)})</span> : null}
                    </Td>
                    <Td>
                      {m.finalizedAt ? (
                        <Badge tone="green">
                          <span>
                            Finalized <LocalTime iso={m.finalizedAt} />
                          </span>
                        </Badge>
                      ) : m.fundsReceivedAt ? (
                        <Badge tone="blue">
                          <span>
                            Funds received <LocalTime iso={m.fundsReceivedAt} />
                          </span>
                        </Badge>
                      ) : m.liveImportId ? (
                        <Badge tone="amber">Estimated</Badge>
                      ) : (
                        <Badge>Not imported</Badge>
                      )}
                    </Td>
                    <Td className="text-right">
                      {m.liveImportId && !m.fundsReceivedAt ? (
                        <MonthButton intent="funds_received" month={m.month} label="Mark funds received" busy={busy} />
                      ) : null}
                      {m.fundsReceivedAt && !m.finalizedAt ? <MonthButton intent="finalize" month={m.month} label="Finalize" busy={busy} /> : null}
                    </Td>
                  </tr>
                ))}
              </TableBody>
            </Table>
          </TableRegion>
        )}
      </Section>

      <Section id="imports-heading" title="Recent imports" className="mt-10">
        {imports.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">None yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {imports.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {monthLabel(i.month)} · {i.fileName ?? "file"} · {i.entryCount} lines · {formatCents(i.netCents)} · <LocalTime iso={i.createdAt} withTime />
                </span>
                <span className="flex items-center gap-2">
                  <Badge tone={IMPORT_STATUS[i.status].tone}>{IMPORT_STATUS[i.status].label}</Badge>
                  {i.status === "staged" ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="discard" />
                      <input type="hidden" name="importId" value={i.id} />
                      <Button type="submit" disabled={busy}>
                        Discard
                      </Button>
                    </Form>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="payouts-heading" title="Payouts" className="mt-10">
        {batches.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No payouts yet. They are gathered on the payout day from finalized months.</p>
        ) : (
          batches.map((batch) => (
            <div key={batch} className="mt-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold text-slate-900">Payout run {monthLabel(batch)}</h3>
                <a className={`${buttonClass.secondary} whitespace-nowrap`} href={`/admin/payments/batches/${batch}.csv`} download>
                  Export CSV <span className="sr-only">of the {monthLabel(batch)} run</span>
                </a>
              </div>
              {payouts.some((p) => p.batch === batch && p.status === "pending") ? (
                <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="mark_batch_paid" />
                  <input type="hidden" name="batch" value={batch} />
                  <Field label={`Reference for the whole ${monthLabel(batch)} run`} name="reference" required maxLength={100} className="w-full sm:w-80" />
                  <Button type="submit" variant="primary" disabled={busy}>
                    Mark all paid
                  </Button>
                </Form>
              ) : null}
              <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-4 text-sm">
                {payouts
                  .filter((p) => p.batch === batch)
                  .map((p) => (
                    <li key={p.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                      <span>
                        <span className="font-medium">{p.name ?? p.email ?? p.userId}</span> · {formatCents(p.amountCents)}
                      </span>
                      {p.status === "paid" ? (
                        <span>
                          <Badge tone="green">Paid</Badge> <span className="text-slate-600">Ref. {p.reference}</span>{" "}
                          <span className="text-slate-600">
                            · <LocalTime iso={p.paidAt} withTime />
                          </span>
                        </span>
                      ) : (
                        <Form method="post" className="flex w-full items-end gap-2 sm:w-auto">
                          <input type="hidden" name="intent" value="mark_paid" />
                          <input type="hidden" name="payoutId" value={p.id} />
                          <Field
                            label={`Reference for ${p.name ?? p.email ?? "payout"}`}
                            name="reference"
                            required
                            maxLength={100}
                            className="min-w-0 flex-1 sm:w-64 sm:flex-none"
                          />
                          <Button type="submit" variant="primary" disabled={busy} className="shrink-0 whitespace-nowrap">
                            Mark paid
                          </Button>
                        </Form>
                      )}
                    </li>
                  ))}
              </ul>
            </div>
          ))
        )}
      </Section>

      <AgreementsSection rows={agreements} busy={busy} errors={failure?.errors ?? {}} values={failure?.values ?? {}} />
    </>
  );
}

const AGREEMENT_STATUS: Record<AgreementAdminRow["status"], { label: string; tone: Tone }> = {
  active: { label: "Active", tone: "green" },
  notice: { label: "Notice given", tone: "amber" },
  terminated: { label: "Terminated", tone: "red" },
};

/** One agreement action: the person (e-mail or creator ID; its value and error kept for this form's intent only), the action's own fields, its button. */
function AgreementForm({
  title,
  intent,
  submit,
  variant,
  busy,
  errors,
  values,
  children,
}: {
  title: string;
  intent: string;
  submit: string;
  variant?: "primary" | "danger";
  busy: boolean;
  errors: Record<string, string>;
  values: Record<string, string>;
  children: ReactNode;
}) {
  const mine = values.intent === intent;
  return (
    <Form method="post" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <input type="hidden" name="intent" value={intent} />
      <Field
        label="E-mail or creator ID"
        name="person"
        required
        maxLength={254}
        defaultValue={mine ? values.person : undefined}
        error={mine ? errors.person : undefined}
      />
      {children}
      <Button type="submit" variant={variant} disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}

/** The Creator Agreements: revised-share offers, termination for cause, holds on payouts (decisions 0127-0130). */
function AgreementsSection({
  rows,
  busy,
  errors,
  values,
}: {
  rows: AgreementAdminRow[];
  busy: boolean;
  errors: Record<string, string>;
  values: Record<string, string>;
}) {
  return (
    <Section id="agreements-heading" title="Agreements" className="mt-10">
      <p className="mt-1 text-sm text-slate-600">
        Name a person by e-mail or creator ID. Offers need the creator's express acceptance on their Payments page; termination for cause takes effect today.
      </p>
      <div className="mt-3 grid gap-4 lg:grid-cols-3">
        <AgreementForm title="Offer a revised share" intent="offer_share" submit="Make offer" variant="primary" busy={busy} errors={errors} values={values}>
          <Field label="Share (%)" name="sharePercent" required inputMode="decimal" placeholder="75" error={errors.sharePercent} />
          <Field label="Note (optional)" name="note" maxLength={200} error={errors.note} />
        </AgreementForm>
        <AgreementForm title="Terminate for cause" intent="terminate" submit="Terminate now" variant="danger" busy={busy} errors={errors} values={values}>
          <TextArea label="Reason" name="reason" required maxLength={500} rows={2} error={values.intent === "terminate" ? errors.reason : undefined} />
        </AgreementForm>
        <AgreementForm title="Hold payouts" intent="hold" submit="Hold payouts" busy={busy} errors={errors} values={values}>
          <TextArea label="Reason" name="reason" required maxLength={500} rows={2} error={values.intent === "hold" ? errors.reason : undefined} />
        </AgreementForm>
      </div>
      {rows.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">Every agreement is active, with no open offer and no hold.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-4 text-sm">
          {rows.map((r) => (
            <li key={r.userId} className="flex flex-col gap-2 py-3 lg:flex-row lg:items-center lg:justify-between">
              <div>
                <span className="font-medium">{r.name}</span> <span className="text-slate-600">{r.email}</span>{" "}
                <Badge tone={AGREEMENT_STATUS[r.status].tone}>{AGREEMENT_STATUS[r.status].label}</Badge>
                {r.endsOn ? <span className="text-slate-700"> · ends {formatPayoutDay(r.endsOn)}</span> : null}
                {r.terminationReason ? <span className="block text-slate-700">Reason: {r.terminationReason}</span> : null}
                {r.holdReason ? <span className="block text-amber-800">On hold: {r.holdReason}</span> : null}
                {r.offer ? <span className="block text-blue-800">Open offer: {formatBp(r.offer.shareBp)}</span> : null}
              </div>
              <div className="flex flex-wrap gap-2">
                {r.holdReason ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="release_hold" />
                    <input type="hidden" name="person" value={r.email} />
                    <Button type="submit" disabled={busy}>
                      Release hold <span className="sr-only">for {r.name}</span>
                    </Button>
                  </Form>
                ) : null}
                {r.offer ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="withdraw_offer" />
                    <input type="hidden" name="offerId" value={r.offer.id} />
                    <Button type="submit" disabled={busy}>
                      Withdraw offer <span className="sr-only">to {r.name}</span>
                    </Button>
                  </Form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function MonthButton({ intent, month, label, busy }: { intent: string; month: string; label: string; busy: boolean }) {
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="month" value={month} />
      <Button type="submit" disabled={busy}>
        {label} <span className="sr-only">for {monthLabel(month)}</span>
      </Button>
    </Form>
  );
}

function PreviewPanel({ preview, busy }: { preview: ImportPreview; busy: boolean }) {
  const clean = preview.problems.length === 0 && preview.importId;
  return (
    <section aria-labelledby="preview-heading" className="mt-4 rounded-xl border border-slate-200 bg-white p-4">
      <h3 id="preview-heading" className="font-semibold text-slate-900">
        Preview: {monthLabel(preview.month)} ({preview.fileName})
      </h3>
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">Rows</dt>
          <dd className="font-medium">{preview.rowCount}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Matched</dt>
          <dd className="font-medium">{preview.matched}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Problems</dt>
          <dd className="font-medium">{preview.problems.length}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Net revenue</dt>
          <dd className="font-medium">{formatCents(preview.netCents)}</dd>
        </div>
      </dl>
      {preview.problems.length > 0 ? (
        <div role="alert" className="mt-3">
          <p className="text-sm font-semibold text-red-800">Nothing was imported. Fix these rows and preview again:</p>
          <ul className="mt-1 max-h-64 list-disc overflow-y-auto pl-5 text-sm text-red-900">
            {preview.problems.slice(0, 200).map((p) => (
              <li key={`${p.line}-${p.reason}`}>{`Line ${p.line}: ${p.reason}`}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {clean ? (
        <>
          <p className="mt-3 text-sm text-slate-700">
            {preview.entryCount} statement lines; creators' share {formatBp(preview.shareBp)} = {formatCents(preview.amountCents)}.
            {preview.replaces ? " Committing replaces the month's current import." : ""}
            {preview.notCredited
              ? ` ${preview.notCredited} matched ${preview.notCredited === 1 ? "person's agreement" : "people's agreements"} had ended before the month: nothing is credited to them.`
              : ""}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value="commit" />
              <input type="hidden" name="importId" value={preview.importId ?? ""} />
              <input type="hidden" name="replaces" value={preview.replaces} />
              <Button type="submit" variant="primary" disabled={busy}>
                Commit import
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="discard" />
              <input type="hidden" name="importId" value={preview.importId ?? ""} />
              <Button type="submit" disabled={busy}>
                Discard
              </Button>
            </Form>
          </div>
        </>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
