import { Section } from "~/ui/section";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { Badge } from "~/ui/badge";
import { ScrollRegion, TableHead } from "~/ui/table";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { buttonClass } from "~/ui/button";
import { formatDateTime } from "~/lib/dates";
import { inputClass } from "~/ui/field";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { formatCount } from "~/lib/format";
import { ChannelHeading } from "~/modules/channels/components/channel-heading";
import { reviewSubmission, verificationQueue, type QueueItem } from "~/modules/channels/channels.server";
import { reviewSchema } from "~/modules/channels/schema";
import { CHANNEL_TOASTS, REJECTION_REASON_MAX, SUBMISSION_STATUS_LABELS } from "~/modules/channels/messages";
import { domainAction, domainLoader } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/verifications";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";

export const meta = () => [{ title: "Channel verifications | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  return verificationQueue(actorOf(admin));
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const decision = await parseForm(args.request, reviewSchema);
  const item = await reviewSubmission(actorOf(admin), args.request, decision);
  return redirectWithToast(
    args.request,
    "/admin/verifications",
    decision.intent === "verify"
      ? {
          type: "success",
          title: "Channel verified",
          description: `${item.channelName} now counts as a connected channel. The creator has been notified.`,
        }
      : {
          type: "success",
          title: "Submission rejected",
          description: `${item.channelName} was rejected. The creator has been notified.`,
        },
  );
}, CHANNEL_TOASTS.actionFailedTitle);

export default function Verifications({ loaderData, actionData }: Route.ComponentProps) {
  const { queue, recent } = loaderData;
  const [params] = useSearchParams();
  const failure = useActionFailure(actionData);

  // The confirm step is a page state (?review=<id>&decision=verify|reject), so it works without JS;
  // a failed reject keeps it open with the error.
  const reviewId = params.get("review") ?? (failure?.errors.reason ? (failure.values?.id ?? null) : null);
  const decision = params.get("decision") === "verify" ? "verify" : "reject";
  const reviewing = reviewId ? queue.find((q) => q.id === reviewId) : undefined;

  return (
    <>
      <PageHeader
        title="Channel verifications"
        description="Manual channel submissions sent for verification, oldest first. Verified channels count as connected channels."
      />
      <FailureAlert failure={failure?.errors.reason ? null : failure} />

      <section aria-labelledby="queue-heading">
        <h2 id="queue-heading" className="text-lg font-semibold text-slate-900">
          Waiting for review <span className="text-slate-500">({queue.length})</span>
        </h2>
        {queue.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="Nothing to review">
              <p>No manual channel submission is waiting for verification.</p>
            </EmptyState>
          </div>
        ) : (
          <ul className="mt-3 space-y-3">
            {queue.map((item) => (
              <QueueCard key={item.id} item={item} />
            ))}
          </ul>
        )}
      </section>

      <Section id="recent-heading" title="Recent decisions" className="mt-10">
        {recent.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No decisions yet.</p>
        ) : (
          <ScrollRegion labelledBy="recent-heading" className="mt-3">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <caption className="sr-only">The latest verification decisions</caption>
              <TableHead
                className="bg-slate-50 text-left text-slate-700"
                cellClassName="px-4 py-2 font-semibold"
                columns={["Channel", "Creator", "Decision", "Reviewed"]}
              />
              <tbody className="divide-y divide-slate-100">
                {recent.map((r) => (
                  <tr key={r.id}>
                    <td className="px-4 py-2 font-medium text-slate-900">{r.channelName}</td>
                    <td className="px-4 py-2 text-slate-700">{r.creatorName || r.creatorEmail}</td>
                    <td className="px-4 py-2">
                      <Badge tone={r.status === "verified" ? "green" : "red"}>{SUBMISSION_STATUS_LABELS[r.status]}</Badge>
                      {r.rejectionReason ? <span className="ml-2 text-slate-600">{r.rejectionReason}</span> : null}
                    </td>
                    <td className="px-4 py-2 whitespace-nowrap text-slate-600">
                      {formatDateTime(r.reviewedAt)}
                      {r.reviewedByEmail ? ` by ${r.reviewedByEmail}` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </Section>

      {reviewing ? <ReviewDialog item={reviewing} decision={decision} error={failure?.errors.reason} /> : null}
    </>
  );
}

function QueueCard({ item }: { item: QueueItem }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <ChannelHeading name={item.channelName} url={item.channelUrl} level="h3" linkClassName="text-slate-700" />
          <p className="mt-1 text-sm text-slate-700">
            {formatCount(item.subscriberCount)} subscribers · {formatCount(item.avgMonthlyViews)} avg monthly views
          </p>
          <p className="mt-1 text-xs text-slate-600">
            {item.creatorName || "—"} · {item.creatorEmail} · creator ID {item.creatorId} · sent {formatDateTime(item.verificationSubmittedAt)}
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <Link to={`?review=${item.id}&decision=verify`} preventScrollReset className={buttonClass.primary}>
            Verify<span className="sr-only"> {item.channelName}</span>
          </Link>
          <Link to={`?review=${item.id}&decision=reject`} preventScrollReset className={buttonClass.dangerOutline}>
            Reject<span className="sr-only"> {item.channelName}</span>
          </Link>
        </div>
      </div>
    </li>
  );
}

function ReviewDialog({ item, decision, error }: { item: QueueItem; decision: "verify" | "reject"; error?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <ConfirmDialog title={decision === "verify" ? "Verify this channel?" : "Reject this submission?"} cancelTo="/admin/verifications">
      <p className="text-sm text-slate-700">
        <strong>{item.channelName}</strong> by {item.creatorName || item.creatorEmail}.{" "}
        {decision === "verify"
          ? "It will count as a connected channel for the creator, who will be notified."
          : "The creator will be notified with your reason and can send it again."}
      </p>
      <Form method="post" action="/admin/verifications" className="mt-4 space-y-3">
        <input type="hidden" name="intent" value={decision} />
        <input type="hidden" name="id" value={item.id} />
        {decision === "reject" ? (
          <div>
            <label htmlFor="reject-reason" className="block text-sm font-medium text-slate-800">
              Reason
            </label>
            <textarea
              id="reject-reason"
              name="reason"
              required
              maxLength={REJECTION_REASON_MAX}
              rows={3}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "reject-reason-error" : undefined}
              className={inputClass}
            />
            {error ? (
              <p id="reject-reason-error" className="mt-1 text-sm text-red-700">
                {error}
              </p>
            ) : null}
          </div>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Link to="/admin/verifications" replace preventScrollReset className={buttonClass.secondary}>
            Cancel
          </Link>
          <button type="submit" disabled={busy} className={decision === "verify" ? buttonClass.primary : buttonClass.danger}>
            {decision === "verify" ? "Verify channel" : "Reject submission"}
          </button>
        </div>
      </Form>
    </ConfirmDialog>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
