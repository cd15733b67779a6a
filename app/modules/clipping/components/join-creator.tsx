import { Form } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { refilled } from "~/ui/action-failure";
import { buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { Section } from "~/ui/section";
import type { PendingInvite, WaitingRequest } from "../types";
import { failureFor } from "./page-parts";

// The invited person's side of /clipping (docs/decisions/0205): the invitation kept from a link
// they opened, a box to paste one, and the requests that wait for a creator's approval.

/** "I accept the Clipper Agreement" with the agreement's link (the action refuses without it, saying so). */
function AgreementBox({ id, error }: { id: string; error?: string }) {
  return (
    <>
      <div className="flex items-start gap-2">
        <input id={id} name="acceptClipperAgreement" type="checkbox" className="mt-1 h-4 w-4" aria-describedby={error ? `${id}-error` : undefined} />
        <label htmlFor={id} className="text-sm text-slate-800">
          I accept the{" "}
          <a className="font-medium underline" href="/terms-of-service#clipper-agreement" target="_blank" rel="noreferrer">
            Clipper Agreement
          </a>
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The invitation kept from a link this person opened: accept it (with the agreement) or dismiss it. */
export function PendingInviteCard({ invite, failure }: { invite: PendingInvite; failure: ActionFailure | null }) {
  return (
    <section aria-labelledby="pending-invite" className="rounded-xl border border-blue-200 bg-blue-50 p-4">
      <h2 id="pending-invite" className="text-lg font-semibold text-slate-900">
        {`Clipper invitation from ${invite.creatorName}`}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Accept to cut clips from {invite.creatorName}'s source videos under the Clipper Agreement: 70% clipper, 30% creator of the music monetization pool
        revenue by default. {invite.creatorName} approves you before you can use the folder.
      </p>
      <Form method="post" className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="accept-invite" />
        <input type="hidden" name="code" value={invite.code} />
        <AgreementBox id="acceptClipperAgreement" error={failureFor(failure, "accept-invite", "code", invite.code)?.errors.acceptClipperAgreement} />
        <button type="submit" className={buttonClass.primary}>
          Accept invitation
        </button>
      </Form>
      <Form method="post" className="mt-2">
        <input type="hidden" name="intent" value="dismiss-invite" />
        <button type="submit" className={buttonClass.secondary}>
          Dismiss
        </button>
      </Form>
    </section>
  );
}

/** The requests this person made that wait for a creator's approval (shown at the top of the page). */
export function WaitingRequests({ waiting }: { waiting: WaitingRequest[] }) {
  if (waiting.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label="Requests waiting for a creator">
      {waiting.map((w) => (
        <li key={w.id} className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-slate-800">
          Waiting for <strong>{w.creatorName}</strong> to approve you (you accepted their invitation <LocalTime iso={w.acceptedAt} withTime />
          ). Their source folder opens here once they do.
        </li>
      ))}
    </ul>
  );
}

/** A box to accept an invitation by pasting its link (or code). */
export function AcceptInvitationSection({ failure, pendingCode }: { failure: ActionFailure | null; pendingCode: string | null }) {
  // The paste box's refusals (the kept invitation's card shows its own).
  const own = failure?.intent === "accept-invite" && failure.values?.code !== pendingCode ? failure : null;
  return (
    <Section id="join-creator" title="Clip for a creator">
      <Form method="post" className="mt-3 max-w-2xl space-y-3">
        <input type="hidden" name="intent" value="accept-invite" />
        <Field
          label="Invitation link or code"
          autoComplete="off"
          required
          hint="A creator gives you a link of its own; it works once and expires in 7 days."
          {...refilled(own, "code")}
        />
        <AgreementBox id="acceptClipperAgreementPasted" error={own?.errors.acceptClipperAgreement} />
        <button type="submit" className={buttonClass.secondary}>
          Accept invitation
        </button>
      </Form>
    </Section>
  );
}
