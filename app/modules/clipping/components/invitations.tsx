import { useState } from "react";
import { useNavigation } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { refilled } from "~/ui/action-failure";
import { Badge, type Tone } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { InlineFieldForm } from "~/ui/inline-field-form";
import { LocalTime } from "~/ui/local-time";
import { Section } from "~/ui/section";
import { INVITATION_STATE_LABELS, type InvitationState } from "../messages";
import type { InvitationRow } from "../types";
import { failureFor, IntentButton } from "./page-parts";

// The creator's clipper invitations on /clipping (docs/decisions/0205): make one (optionally for
// one e-mail address), copy its link once, approve or decline the people who used one, withdraw
// one nobody used yet, and see the rest.

/** What the create-invitation action answers: the new link, shown once. */
export type CreatedInvitation = { link: string | null; email: string | null; emailed: boolean };

const TONE: Record<InvitationState, Tone> = {
  open: "blue",
  expired: "slate",
  accepted: "amber",
  approved: "green",
  declined: "red",
  withdrawn: "slate",
};

export function InvitationsSection({
  invitations,
  created,
  failure,
}: {
  invitations: InvitationRow[];
  created: CreatedInvitation | null;
  failure: ActionFailure | null;
}) {
  const waiting = invitations.filter((i) => i.state === "accepted");
  const createFailure = failureFor(failure, "create-invitation");
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create-invitation";
  return (
    <Section id="invitations" title="Invite clippers">
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Each invitation is a link of its own: it works once and expires in 7 days. Whoever uses it waits for your approval before they can download your source
        videos. Your public referral link never gives access to your folder.
      </p>
      <InlineFieldForm intent="create-invitation" className="mt-3 max-w-2xl" busy={creating} submit="Create invitation">
        <Field
          label="E-mail (optional)"
          type="email"
          autoComplete="off"
          className="min-w-0 flex-1"
          hint="We send the link to this address, and only an account with it can use the invitation."
          {...refilled(createFailure, "email")}
        />
      </InlineFieldForm>
      {created ? <CreatedLink created={created} /> : null}

      {waiting.length > 0 ? (
        <ul className="mt-4 space-y-2" aria-label="Clippers waiting for your approval">
          {waiting.map((i) => (
            <li
              key={i.id}
              className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="min-w-0 break-words">
                <strong>{i.personName}</strong> ({i.personEmail}) accepted your invitation <LocalTime iso={i.acceptedAt} withTime /> and waits for your
                approval.
                {i.personApproved === false ? " Their account is still under review: they can use your folder once it is approved too." : ""}
              </span>
              <span className="flex shrink-0 gap-2">
                <IntentButton
                  intent="approve-clipper"
                  fields={{ invitationId: i.id }}
                  label={
                    <>
                      Approve<span className="sr-only"> {i.personName}</span>
                    </>
                  }
                  variant="primary"
                />
                <IntentButton
                  intent="decline-clipper"
                  fields={{ invitationId: i.id }}
                  label={
                    <>
                      Decline<span className="sr-only"> {i.personName}</span>
                    </>
                  }
                />
              </span>
            </li>
          ))}
        </ul>
      ) : null}

      {invitations.length > 0 ? (
        <>
          <h3 className="mt-5 text-sm font-semibold text-slate-900">Your invitations</h3>
          <ul aria-label="Your invitations" className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
            {invitations.map((i) => (
              <li key={i.id} className="flex flex-col gap-2 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{i.email ?? "Anyone with the link"}</p>
                  <p className="text-xs text-slate-600">
                    Created <LocalTime iso={i.createdAt} />
                    {i.state === "open" || i.state === "expired" ? (
                      <>
                        {" · "}
                        {i.state === "open" ? "expires" : "expired"} <LocalTime iso={i.expiresAt} withTime />
                      </>
                    ) : null}
                    {i.personName ? ` · used by ${i.personName}` : ""}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2">
                  <Badge tone={TONE[i.state]}>{INVITATION_STATE_LABELS[i.state]}</Badge>
                  {i.state === "open" ? (
                    <IntentButton
                      intent="withdraw-invitation"
                      fields={{ invitationId: i.id }}
                      label={
                        <>
                          Withdraw<span className="sr-only"> the invitation {i.email ? `for ${i.email}` : "for anyone with the link"}</span>
                        </>
                      }
                      variant="dangerOutline"
                    />
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Section>
  );
}

/** The new invitation's link: shown once (only its hash is kept), with a copy button. */
function CreatedLink({ created }: { created: CreatedInvitation }) {
  const [copied, setCopied] = useState(false);
  if (!created.link) {
    return (
      <p role="status" className="mt-3 max-w-2xl rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-700">
        An invitation was sent to {created.email} a moment ago: it stands.
      </p>
    );
  }
  const link = created.link;
  return (
    <div role="status" className="mt-3 max-w-2xl rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950">
      <p className="font-semibold">Invitation created</p>
      <p className="mt-1">
        {created.emailed
          ? `We sent the link to ${created.email}. You can also share it yourself: `
          : created.email
            ? `${created.email} received an invitation e-mail within the last hour, so none was sent now: share this link yourself. `
            : "Share this link with the person you invite. "}
        Copy it now: it is shown only once.
      </p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end">
        <Field label="Invitation link" name="invitationLink" readOnly value={link} className="min-w-0 flex-1" onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => {
            void navigator.clipboard?.writeText(link).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy link"}
        </button>
      </div>
    </div>
  );
}
