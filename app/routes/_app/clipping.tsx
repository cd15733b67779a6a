import { data, useSearchParams } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import {
  acceptInvitation,
  answerClipperRequest,
  answerSplit,
  clearClipperInviteCookie,
  createInvitation,
  deleteSource,
  markRemoved,
  renameSource,
  requestRemoval,
  requestSplit,
  reviewClip,
  revokeClipper,
  setClipViews,
  startClippingPage,
  submitClip,
  withdrawInvitation,
} from "~/modules/clipping/clipping.server";
import { ClipTable } from "~/modules/clipping/components/clip-table";
import { ClipEarningCell, ClipEarningsNote } from "~/modules/payments/components/clip-earning";
import type { ClipEarnings } from "~/modules/payments/types";
import { ClippersSection } from "~/modules/clipping/components/clippers";
import { CreatorCard } from "~/modules/clipping/components/creator-card";
import { type CreatedInvitation, InvitationsSection } from "~/modules/clipping/components/invitations";
import { AcceptInvitationSection, PendingInviteCard, WaitingRequests } from "~/modules/clipping/components/join-creator";
import { SourceTable } from "~/modules/clipping/components/source-table";
import { SourceUploader } from "~/modules/clipping/components/source-uploader";
import { ViewsToEnter } from "~/modules/clipping/components/views-to-enter";
import { CLIPPING_ACTION_TITLES, CLIPPING_TOASTS, formatBytes } from "~/modules/clipping/messages";
import { clippingActionSchema } from "~/modules/clipping/schema";
import { startClipEarnings } from "~/modules/payments/payments.server";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { ConfirmForm } from "~/ui/confirm-form";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import type { Route } from "./+types/clipping";

export const meta = () => [{ title: "Clipping | Shortbeat" }];

// The page's rows and its earnings ride in the session lookup's batch (one round trip); the guard decides before any row is used.
export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const clippingPage = startClippingPage(args);
  // Per-clip earnings are the payments ledger's (a domain above clipping): this route asks both.
  const clipEarnings = startClipEarnings(args);
  const user = await requireApprovedUser(args);
  const actor = actorOf(user);
  const page = await clippingPage(actor);
  return { ...page, earnings: await clipEarnings(actor, [...page.clipsToReview, ...page.myClips]) };
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireApprovedUser(args);
  const input = await parseForm(args.request, clippingActionSchema);
  const actor = actorOf(user);
  const { request } = args;
  const done = (t: { title: string; description: string }, headers?: HeadersInit) =>
    redirectWithToast(request, "/clipping", { type: "success", ...t }, headers ? { headers } : undefined);
  switch (input.intent) {
    case "create-invitation":
      // The link is shown once, on this answer (only its hash is stored): no redirect.
      return data({ ok: true as const, created: await createInvitation(actor, request, input) }, { headers: { "Cache-Control": "private, no-store" } });
    case "withdraw-invitation":
      await withdrawInvitation(actor, request, input.invitationId);
      return done(CLIPPING_TOASTS.invitationWithdrawn);
    case "approve-clipper":
    case "decline-clipper": {
      const approve = input.intent === "approve-clipper";
      await answerClipperRequest(actor, request, { invitationId: input.invitationId, decision: approve ? "approve" : "decline" });
      return done(approve ? CLIPPING_TOASTS.clipperApproved : CLIPPING_TOASTS.clipperDeclined);
    }
    case "accept-invite":
      await acceptInvitation(actor, request, input);
      return done(CLIPPING_TOASTS.inviteAccepted, { "Set-Cookie": clearClipperInviteCookie(request) });
    case "dismiss-invite":
      return done(CLIPPING_TOASTS.inviteDismissed, { "Set-Cookie": clearClipperInviteCookie(request) });
    case "revoke":
      await revokeClipper(actor, request, input.linkId);
      return done(CLIPPING_TOASTS.revoked);
    case "rename":
      await renameSource(actor, input.sourceId, input.name);
      return done(CLIPPING_TOASTS.renamed);
    case "delete":
      await deleteSource(actor, request, input.sourceId);
      return done(CLIPPING_TOASTS.deleted);
    case "submit-clip":
      await submitClip(actor, request, input);
      return done(CLIPPING_TOASTS.submitted);
    case "review-clip":
      await reviewClip(actor, request, input);
      return done(input.decision === "approve" ? CLIPPING_TOASTS.approved : CLIPPING_TOASTS.rejected);
    case "request-removal":
      await requestRemoval(actor, request, input.clipId);
      return done(CLIPPING_TOASTS.removalRequested);
    case "mark-removed":
      await markRemoved(actor, request, input.clipId);
      return done(CLIPPING_TOASTS.removed);
    case "request-split":
      await requestSplit(actor, request, input);
      return done(CLIPPING_TOASTS.splitRequested);
    case "answer-split":
      await answerSplit(actor, request, input);
      return done(input.decision === "approve" ? CLIPPING_TOASTS.splitApproved : CLIPPING_TOASTS.splitDeclined);
    case "set-views":
      await setClipViews(actor, request, input);
      return done(CLIPPING_TOASTS.viewsSaved);
  }
}, CLIPPING_ACTION_TITLES);

export const ErrorBoundary = GeneralErrorBoundary;

// ---------------------------------------------------------------------------------------------

export default function Clipping({ loaderData, actionData }: Route.ComponentProps) {
  const page = loaderData;
  const failure = useActionFailure(actionData);
  const created: CreatedInvitation | null = actionData && "created" in actionData ? actionData.created : null;
  const [params] = useSearchParams();

  const revoking = page.clippers.find((c) => c.id === params.get("revoke"));
  const deleting = page.sources.find((s) => s.id === params.get("delete"));

  // The clipper's side: the creators one clips for and one's clips.
  const clipperSide = (
    <>
      {page.creators.length > 0 ? (
        <Section id="creators" title="Creators you clip for">
          <ul className="mt-3 space-y-6">
            {page.creators.map((c) => (
              <CreatorCard key={c.id} link={c} failure={failure} />
            ))}
          </ul>
        </Section>
      ) : null}

      {page.myClips.length > 0 || page.creators.length > 0 ? (
        <Section id="my-clips" title="Your clips">
          <ClipTable clips={page.myClips} side="clipper" {...earningsOf(page.earnings, "clipper")} />
        </Section>
      ) : null}
    </>
  );
  const onlyClips =
    page.creators.length > 0 && page.clippers.length === 0 && page.invitations.length === 0 && page.sources.length === 0 && page.clipsToReview.length === 0;

  return (
    <div className="min-w-0 space-y-10">
      <PageHeader
        title="Clipping"
        description={
          onlyClips
            ? "Cut clips from the source videos of the creators you clip for. Clip revenue comes from the music monetization pool: 70% clipper, 30% creator by default."
            : "Clippers cut clips from your source videos. Clip revenue comes from the music monetization pool: 70% clipper, 30% creator by default."
        }
      />

      <FailureAlert failure={failure} className="" />

      {page.pendingInvite ? <PendingInviteCard invite={page.pendingInvite} failure={failure} /> : null}
      <WaitingRequests waiting={page.waitingRequests} />

      {/* A person who only clips (nothing of their own shared yet) sees the creators they clip for
          first, not the tools for their own videos (issue 42 §3). */}
      {onlyClips ? clipperSide : null}

      {/* ---- The creator's side ---- */}
      <InvitationsSection invitations={page.invitations} created={created} failure={failure} />

      <ClippersSection clippers={page.clippers} />

      <Section id="folder" title="Source folder">
        <p className="mt-1 text-sm text-slate-600">
          {formatBytes(page.usage.usedBytes)} of {formatBytes(page.usage.quotaBytes)} used. Your approved clippers download these videos while their access
          lasts.
        </p>
        <div className="mt-3">
          <SourceUploader />
        </div>
        <SourceTable sources={page.sources} own failure={failure} />
      </Section>

      <Section id="review" title="Clips of your videos">
        <ClipTable clips={page.clipsToReview} side="creator" {...earningsOf(page.earnings, "creator")} />
      </Section>

      {onlyClips ? null : clipperSide}

      <AcceptInvitationSection failure={failure} pendingCode={page.pendingInvite?.code ?? null} />

      {page.viewsToEnter.length > 0 ? <ViewsToEnter clips={page.viewsToEnter} failure={failure} /> : null}

      {revoking ? (
        <ConfirmDialog title="Revoke access?" cancelTo="/clipping">
          <p className="text-sm text-slate-700">
            <strong>{revoking.personName}</strong> will no longer be able to download your source videos (links already given stop working at once) and will be
            notified. Their clips stay recorded for accounting.
          </p>
          <ConfirmForm action="/clipping" fields={{ intent: "revoke", linkId: revoking.id }} label="Revoke access" />
        </ConfirmDialog>
      ) : null}

      {deleting ? (
        <ConfirmDialog title="Delete source video?" cancelTo="/clipping">
          <p className="text-sm text-slate-700">
            <strong>{deleting.name}</strong> will be deleted from your folder and storage. Clips cut from it stay recorded.
          </p>
          <ConfirmForm action="/clipping" fields={{ intent: "delete", sourceId: deleting.id }} label="Delete video" />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** Each clip's earnings and the note under the table, from the payments module, for ClipTable. */
function earningsOf(earnings: ClipEarnings, side: "creator" | "clipper") {
  return {
    earning: (clip: { id: string }, approved: boolean) => <ClipEarningCell earning={earnings.byClip[clip.id]} side={side} approved={approved} />,
    earningsNote: <ClipEarningsNote currentMonthLabel={earnings.currentMonthLabel} />,
  };
}
