import { RowList } from "~/ui/row-list";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Badge, type Tone } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Field } from "~/ui/field";
import { Section } from "~/ui/section";
import { TextArea } from "~/ui/textarea";
import { formatPayoutDay } from "../calendar";
import { PersonField } from "./person-field";
import { formatBp } from "~/lib/split";
import type { AgreementAdminRow } from "../types";

// The Creator Agreements on /admin/payments: revised-share offers, termination for cause, holds on
// payouts (docs/decisions/0127-0130).

const AGREEMENT_STATUS: Record<AgreementAdminRow["status"], { label: string; tone: Tone }> = {
  active: { label: "Active", tone: "green" },
  notice: { label: "Notice given", tone: "amber" },
  terminated: { label: "Terminated", tone: "red" },
};

/** One agreement action: the person (e-mail or creator ID; its value and error kept for this form's intent only), the action's own fields, its button. */
export function AgreementForm({
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
  return (
    <Form method="post" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <input type="hidden" name="intent" value={intent} />
      <PersonField intent={intent} values={values} errors={errors} />
      {children}
      <Button type="submit" variant={variant} disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}

/** The Creator Agreements: revised-share offers, termination for cause, holds on payouts (decisions 0127-0130). */
export function AgreementsSection({
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
      <RowList items={rows} empty="Every agreement is active, with no open offer and no hold." spacing="mt-4" className="text-sm">
        {(r) => (
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
        )}
      </RowList>
    </Section>
  );
}
