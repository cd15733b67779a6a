import { Form, Link } from "react-router";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Section } from "~/ui/section";
import { formatPayoutDay, monthLabel, NOTICE_DAYS } from "../calendar";
import { formatBp } from "~/lib/split";
import type { AgreementView } from "../types";

// /payments: the Creator Agreement (issue 14): share, term start and renewal, a revised-share offer
// to accept expressly or decline, notice of termination (and its withdrawal), a termination for
// cause and a hold on payouts as the admin set them. Days are calendar days (UTC), never shifted.

function day(d: string | null): string {
  return d ? formatPayoutDay(d) : "—";
}

export function AgreementPanel({ agreement: a, busy, errors }: { agreement: AgreementView; busy: boolean; errors: Record<string, string> }) {
  const statusBadge =
    a.status === "active" ? (
      <Badge tone="green">Active</Badge>
    ) : a.status === "notice" ? (
      <Badge tone="amber">Notice given</Badge>
    ) : (
      <Badge tone="red">{a.status === "terminated" ? "Terminated" : "Ended"}</Badge>
    );
  return (
    <Section id="agreement-heading" title="Agreement" className="mt-10 print:hidden">
      <dl className="mt-3 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-slate-600">Your share</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums">
            {formatBp(a.shareBp)}
            <span className="ml-1 text-xs font-normal text-slate-600">
              {a.shareBp === a.standardBp ? "standard share of net revenue" : "revised share of net revenue"}
            </span>
          </dd>
          {a.upcoming ? (
            <dd className="mt-1 text-xs text-slate-700">
              From {monthLabel(a.upcoming.effectiveMonth)}: {formatBp(a.upcoming.shareBp)} (accepted revised share)
            </dd>
          ) : null}
        </div>
        <div>
          <dt className="text-slate-600">Term started</dt>
          <dd className="mt-1 font-medium">{a.termStart ? day(a.termStart) : "When you link your first channel"}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{a.status === "active" ? "Renews on" : "Ends on"}</dt>
          <dd className="mt-1 font-medium">{a.status === "active" ? (a.renewsOn ? day(a.renewsOn) : "—") : day(a.endsOn)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Status</dt>
          <dd className="mt-1">{statusBadge}</dd>
        </div>
      </dl>

      {a.holdReason ? (
        <p role="status" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <span className="font-semibold">Payouts on hold.</span> Reason: {a.holdReason}
        </p>
      ) : null}

      {a.status === "terminated" ? (
        <p className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          The agreement was terminated for cause with immediate effect on {day(a.endsOn)}. Reason: {a.terminationReason}. Nothing is earned after that day;
          balances finalized before it are still paid unless they are on hold.
        </p>
      ) : null}
      {a.status === "ended" ? (
        <p className="mt-3 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
          Your notice took effect: the agreement ended on {day(a.endsOn)}. Nothing is earned after that day; balances finalized before it are still paid.
        </p>
      ) : null}

      {a.offer && a.status === "active" ? (
        <section aria-labelledby="offer-heading" className="mt-4 rounded-xl border border-blue-200 bg-blue-50 p-4 text-sm">
          <h3 id="offer-heading" className="font-semibold text-slate-900">
            Revised share offered: {formatBp(a.offer.shareBp)}
          </h3>
          <p className="mt-1 text-slate-800">
            Your current share is {formatBp(a.shareBp)}. If you accept, {formatBp(a.offer.shareBp)} applies to revenue from {monthLabel(a.offer.effectiveMonth)}{" "}
            on, and a new 12-month term starts today. If you decline, your current share stays.
          </p>
          {a.offer.note ? <p className="mt-1 text-slate-700">Note: {a.offer.note}</p> : null}
          <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
            <Form method="post" className="flex flex-col gap-2">
              <input type="hidden" name="intent" value="accept_offer" />
              <input type="hidden" name="offerId" value={a.offer.id} />
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  name="confirm"
                  value="yes"
                  required
                  className="mt-1 h-4 w-4"
                  aria-describedby={errors.confirm ? "offer-confirm-error" : undefined}
                />
                <span>I accept the revised share of {formatBp(a.offer.shareBp)} and a new 12-month term.</span>
              </label>
              {errors.confirm ? (
                <p id="offer-confirm-error" className="text-red-700">
                  {errors.confirm}
                </p>
              ) : null}
              <Button type="submit" variant="primary" disabled={busy} className="self-start">
                Accept revised share
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="decline_offer" />
              <input type="hidden" name="offerId" value={a.offer.id} />
              <Button type="submit" disabled={busy}>
                Decline
              </Button>
            </Form>
          </div>
        </section>
      ) : null}

      {a.status === "notice" ? (
        <div className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
          <p>
            You gave notice to end the agreement. It ends on <strong>{day(a.endsOn)}</strong>, the end of the first term that ends at least {NOTICE_DAYS} days
            after your notice; you earn until then. You can withdraw your notice before that day.
          </p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="withdraw_notice" />
            <Button type="submit" disabled={busy}>
              Withdraw notice
            </Button>
          </Form>
        </div>
      ) : null}

      {a.status === "active" ? (
        <details className="mt-4 rounded-xl border border-slate-200 bg-white p-4 text-sm">
          <summary className="cursor-pointer font-medium text-slate-900">End the agreement</summary>
          <p className="mt-2 text-slate-700">
            You can end the agreement with {NOTICE_DAYS} days' written notice; it takes effect at the end of a 12-month term. If you give notice today, the
            agreement ends on <strong>{day(a.noticeWouldEndOn)}</strong> and you earn until then. You can withdraw your notice before that day. See the{" "}
            <Link to="/terms-of-service" className="underline">
              Creator Agreement
            </Link>
            .
          </p>
          <Form method="post" className="mt-3 flex flex-col gap-2">
            <input type="hidden" name="intent" value="give_notice" />
            <label className="flex items-start gap-2">
              <input type="checkbox" name="confirm" value="yes" required className="mt-1 h-4 w-4" />
              <span>I give notice to end my Creator Agreement on {day(a.noticeWouldEndOn)}.</span>
            </label>
            <Button type="submit" variant="dangerOutline" disabled={busy} className="self-start">
              Give notice
            </Button>
          </Form>
        </details>
      ) : null}
    </Section>
  );
}
