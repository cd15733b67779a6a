import { useState } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import type { ActionFailure, FieldErrors } from "~/lib/errors";
import { formatCount } from "~/lib/format";
import { hrefWith } from "~/lib/href";
import { ConfirmActions } from "~/modules/admin/components/console";
import { formatPayoutDay } from "~/modules/payments/calendar";
import { centsToDecimal, formatCents } from "~/modules/payments/money";
import { refilled } from "~/ui/action-failure";
import { Badge, type Tone } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import { DataTable, Td } from "~/ui/table";
import { TextArea } from "~/ui/textarea";
import { validateBeforeSubmit } from "~/ui/validate-before-submit";
import type { AdminCampaignDetail, TrackOption } from "../campaigns.server";
import { BRIEF_MAX, CAMPAIGN_CONFIRM, type CampaignConfirm, SUBMISSION_STATUS_LABELS } from "../messages";
import { type CampaignState, formatRate, STATE_LABELS } from "../rules";
import { PLATFORM_LABELS } from "../video-url";

// One campaign on /admin/campaigns (issue 15): its figures and transitions (launch, end early,
// settle, funds received, each asking first), the submissions to review, its ledger entries and
// the create/edit form. The route (app/routes/admin/campaigns.tsx) loads and acts.

/** The admin page of one campaign, or the list. */
export const adminCampaignHref = (id?: string) => (id ? `/admin/campaigns?campaign=${id}` : "/admin/campaigns");

export const STATE_TONE: Record<CampaignState, Tone> = { draft: "slate", scheduled: "blue", live: "green", ended: "amber", settled: "violet" };
const SUBMISSION_TONE: Record<"pending" | "approved" | "rejected", Tone> = { pending: "amber", approved: "green", rejected: "red" };

/** The transitions that ask first (each through ConfirmDialog), by the state they start from. */
const CONFIRM_FROM: Record<CampaignConfirm, readonly CampaignState[]> = { launch: ["draft"], end: ["scheduled", "live"], settle: ["ended"] };

export function CampaignDetail({
  c,
  tracks,
  failure,
  confirm,
}: {
  c: AdminCampaignDetail;
  tracks: TrackOption[];
  failure: ActionFailure | null;
  confirm: CampaignConfirm | null;
}) {
  const busy = useNavigation().state !== "idle";
  const { pathname, search } = useLocation();
  const cancelTo = hrefWith(pathname, search, { confirm: null });
  const asking = confirm && CONFIRM_FROM[confirm].includes(c.state) ? confirm : null;
  const ask = (intent: CampaignConfirm, cls: string) => (
    <Link key={intent} to={hrefWith(pathname, search, { confirm: intent })} preventScrollReset className={cls}>
      {CAMPAIGN_CONFIRM[intent].label}
    </Link>
  );
  const action = adminCampaignHref(c.id);
  const editable = c.state === "draft" || c.state === "scheduled" || c.state === "live";
  const frozen = c.state === "settled";
  const button = (intent: string, label: string, cls = buttonClass.secondary) => (
    <Form method="post" action={action} key={intent}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={c.id} />
      <button type="submit" className={cls} disabled={busy}>
        {label}
      </button>
    </Form>
  );
  return (
    <Section id="campaign-detail" title={`${c.title} (${STATE_LABELS[c.state]})`} className="mt-10 rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
      <dl className="mt-3 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-slate-500">Budget</dt>
          <dd className="font-medium">
            {formatCents(c.spentCents)} approved of {formatCents(c.budgetCents)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Ends</dt>
          <dd className="font-medium">
            <LocalTime iso={c.effectiveEnd} withTime />
            {c.endedEarlyAt ? " (ended early)" : ""}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Brand's funds</dt>
          <dd className="font-medium">{c.fundsReceivedAt ? <LocalTime iso={c.fundsReceivedAt} /> : "Not received yet"}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Payout</dt>
          <dd className="font-medium">{c.payableOn ? `Payable ${formatPayoutDay(c.payableOn)}` : `Due by ${formatPayoutDay(c.deadline)}`}</dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        {c.state === "draft" ? ask("launch", buttonClass.primary) : null}
        {c.state === "scheduled" || c.state === "live" ? ask("end", buttonClass.dangerOutline) : null}
        {c.state === "ended" ? ask("settle", buttonClass.primary) : null}
        {c.state !== "draft" && !c.fundsReceivedAt ? button("funds_received", "Mark brand's funds received") : null}
        {c.state !== "draft" ? (
          <Link to={`/campaigns/${c.slug}`} className={buttonClass.secondary}>
            Public page
          </Link>
        ) : null}
      </div>

      <h3 id="submissions-heading" className="mt-8 text-base font-semibold text-slate-900">
        Submissions
      </h3>
      {c.submissions.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No submissions yet.</p>
      ) : (
        <DataTable
          labelledBy="submissions-heading"
          className="mt-2"
          columns={["Creator", "Video", "Status", "Views and payout", { label: "Review", className: "min-w-[16rem]" }]}
          rows={c.submissions}
          rowKey={(s) => s.id}
        >
          {(s) => (
            <>
              <Td className="font-medium">{s.person}</Td>
              <Td>
                <a href={s.url} target="_blank" rel="noreferrer noopener" className="break-all text-brand-700 underline">
                  {PLATFORM_LABELS[s.platform]}: {s.url.replace(/^https:\/\/(www\.)?/, "")}
                </a>
                <div className="text-xs text-slate-500">
                  {s.platform === "youtube" ? `Channel ${s.channelId} (checked)` : (s.ownershipReview ?? "In the creator's linked account (checked)")} ·{" "}
                  {formatRate(s.rateCents)}
                </div>
              </Td>
              <Td>
                <Badge tone={SUBMISSION_TONE[s.status]}>{SUBMISSION_STATUS_LABELS[s.status]}</Badge>
                {s.reason ? <div className="mt-1 text-xs text-slate-600">{s.reason}</div> : null}
              </Td>
              <Td>
                {s.status === "approved" ? `${formatCount(s.views)} · ${formatCents(s.amountCents)}` : "—"}
                {s.providerViews !== null ? (
                  <div className="text-xs text-slate-600">
                    {PLATFORM_LABELS[s.platform]}: {formatCount(s.providerViews)} views, read <LocalTime iso={s.viewsCheckedAt} withTime />
                  </div>
                ) : null}
                {s.viewsPinnedAt ? (
                  <div className="text-xs text-slate-600">
                    Pinned by an admin <LocalTime iso={s.viewsPinnedAt} withTime />: the daily reading no longer changes them
                  </div>
                ) : null}
              </Td>
              <Td>
                {frozen || s.status === "rejected" ? (
                  <span className="text-xs text-slate-500">{frozen ? "Frozen (settled)" : "—"}</span>
                ) : (
                  <div className="space-y-2">
                    <Form method="post" action={action} className="flex items-end gap-2">
                      <input type="hidden" name="intent" value={s.status === "pending" ? "approve" : "views"} />
                      <input type="hidden" name="submissionId" value={s.id} />
                      <Field
                        label="Verified views"
                        name="views"
                        inputMode="numeric"
                        required
                        defaultValue={s.status === "approved" ? String(s.views) : s.providerViews !== null ? String(s.providerViews) : ""}
                        hint={s.status === "approved" ? "Updating pins the views." : undefined}
                        className="w-32"
                      />
                      <button type="submit" className={buttonClass.primary} disabled={busy}>
                        {s.status === "pending" ? "Approve" : "Update"}
                      </button>
                    </Form>
                    <Form method="post" action={action} className="flex items-end gap-2">
                      <input type="hidden" name="intent" value="reject" />
                      <input type="hidden" name="submissionId" value={s.id} />
                      <Field label="Reason" name="reason" required className="w-40" />
                      <button type="submit" className={buttonClass.dangerOutline} disabled={busy}>
                        Reject
                      </button>
                    </Form>
                  </div>
                )}
              </Td>
            </>
          )}
        </DataTable>
      )}

      {c.credits.length > 0 ? (
        <>
          <h3 id="ledger-heading" className="mt-8 text-base font-semibold text-slate-900">
            Ledger entries
          </h3>
          <ul className="mt-2 space-y-1 text-sm">
            {c.credits.map((e) => (
              <li key={`${e.person}-${e.amountCents}`}>
                {e.person}: {formatCents(e.amountCents)} — {e.status}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {editable ? (
        <>
          <h3 className="mt-8 text-base font-semibold text-slate-900">Edit</h3>
          {c.state !== "draft" ? (
            <p className="mt-1 text-sm text-slate-600">A new rate applies to submissions made from now on; those already made keep theirs.</p>
          ) : null}
          <CampaignForm intent="update" campaign={c} tracks={tracks} failure={failure?.intent === "update" ? failure : null} />
        </>
      ) : null}

      {asking ? (
        <ConfirmDialog title={`${CAMPAIGN_CONFIRM[asking].label}: ${c.title}`} cancelTo={cancelTo}>
          <Form method="post" preventScrollReset>
            <p className="text-sm text-slate-700">{CAMPAIGN_CONFIRM[asking].text}</p>
            <input type="hidden" name="intent" value={asking} />
            <input type="hidden" name="id" value={c.id} />
            <ConfirmActions
              cancelTo={cancelTo}
              danger={CAMPAIGN_CONFIRM[asking].danger}
              disabled={busy}
              error={failure?.intent === asking ? failure.toast.description : undefined}
            >
              {CAMPAIGN_CONFIRM[asking].label}
            </ConfirmActions>
          </Form>
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}

const localInput = (iso: string) => iso.slice(0, 16);

export function CampaignForm({
  intent,
  campaign: c,
  tracks,
  failure,
}: {
  intent: "create" | "update";
  campaign?: AdminCampaignDetail;
  tracks: TrackOption[];
  failure: ActionFailure | null;
}) {
  const busy = useNavigation().state !== "idle";
  // The browser checks with the action's own schema first (amounts: "2,50" is refused, decision 0203).
  const [checked, setChecked] = useState<FieldErrors>({});
  // A field's name, the value a refused submission sent (else the campaign's) and its error; the
  // browser's own check speaks first.
  const f = (name: string, fallback: string) => {
    const r = refilled(failure, name, fallback);
    return { ...r, error: checked[name] ?? r.error };
  };
  const locked = !!c && c.state !== "draft";
  return (
    <Form
      method="post"
      action={c ? adminCampaignHref(c.id) : "/admin/campaigns"}
      className="mt-3 grid grid-cols-1 gap-4 md:grid-cols-2"
      onSubmit={(ev) => validateBeforeSubmit(ev, () => import("~/modules/campaigns/schema").then((m) => [m.campaignAdminSchema]), setChecked)}
    >
      <input type="hidden" name="intent" value={intent} />
      {c ? <input type="hidden" name="id" value={c.id} /> : null}
      <Field label="Brand" required maxLength={100} {...f("brand", c?.brand ?? "")} />
      <Field label="Title" required maxLength={120} {...f("title", c?.title ?? "")} />
      <Field
        label="Address (slug)"
        required
        readOnly={locked}
        hint={locked ? "The address of a launched campaign cannot change." : "Lower-case letters, digits and hyphens: /campaigns/your-slug"}
        {...f("slug", c?.slug ?? "")}
      />
      <Select
        label="Required track (optional)"
        {...f("requiredTrackId", c?.requiredTrackId ?? "")}
        options={[{ value: "", label: "No required track" }, ...tracks.map((t) => ({ value: t.id, label: t.label }))]}
      />
      <Field
        label="Rate per 1,000 views (USD)"
        inputMode="decimal"
        required
        hint="A dot for decimals, e.g. 2.50."
        {...f("rate", c ? centsToDecimal(c.rateCents) : "")}
      />
      <Field label="Budget (USD)" inputMode="decimal" required {...f("budget", c ? centsToDecimal(c.budgetCents) : "")} />
      <Field label="Starts (UTC)" type="datetime-local" required {...f("startsAt", c ? localInput(c.startsAt) : "")} />
      <Field label="Ends (UTC)" type="datetime-local" required {...f("endsAt", c ? localInput(c.endsAt) : "")} />
      <Field label="Minimum subscribers (optional)" inputMode="numeric" {...f("minSubscribers", c?.minSubscribers ? String(c.minSubscribers) : "")} />
      <div className="md:col-span-2">
        <TextArea label="Brief" required rows={5} maxLength={BRIEF_MAX} {...f("brief", c?.brief ?? "")} />
      </div>
      <div className="md:col-span-2">
        <button type="submit" className={buttonClass.primary} disabled={busy}>
          {intent === "create" ? "Create draft" : "Save changes"}
        </button>
      </div>
    </Form>
  );
}
