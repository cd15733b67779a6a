import type { ReactNode } from "react";
import { Link } from "react-router";
import { ApprovalBadge, Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { inputClass } from "~/ui/field";
import { REASON_MAX } from "../messages";

// Pieces the consoles share (the admin pages and the agency dashboard): filter fields, the footer
// of a confirm dialog and the cells of a person in a table.

/** A labelled control of a filter form. */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The end of a confirm dialog's form: its error (if any), Cancel (back to `cancelTo`) and the confirm button. */
export function ConfirmActions({
  cancelTo,
  danger,
  disabled,
  error,
  errorId,
  children,
}: {
  cancelTo: string;
  danger?: boolean;
  disabled: boolean;
  error?: string;
  errorId?: string;
  children: ReactNode;
}) {
  return (
    <>
      {error ? (
        <p id={errorId} role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Link to={cancelTo} preventScrollReset replace className={buttonClass.secondary}>
          Cancel
        </Link>
        <button type="submit" disabled={disabled} className={danger ? buttonClass.danger : buttonClass.primary}>
          {children}
        </button>
      </div>
    </>
  );
}

/** A person's name (or a dash) over their e-mail, as a table cell. */
export function PersonCell({ name, email }: { name: string | null; email: string }) {
  return (
    <td className="px-4 py-3">
      <p className="font-medium text-slate-900">{name || "—"}</p>
      <p className="break-all text-slate-600">{email}</p>
    </td>
  );
}

/** A person's standing as badges: approval, then banned, admin and music partner when they hold; `children` follow. */
export function StandingCell({
  person,
  children,
}: {
  person: { approvalStatus: string; isBanned: boolean; isAdmin?: boolean; isMusicPartner: boolean };
  children?: ReactNode;
}) {
  return (
    <td className="px-4 py-3">
      <div className="flex flex-wrap gap-1">
        <ApprovalBadge status={person.approvalStatus} />
        {person.isBanned ? <Badge tone="red">Banned</Badge> : null}
        {person.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
        {person.isMusicPartner ? <Badge tone="blue">Music partner</Badge> : null}
        {children}
      </div>
    </td>
  );
}

/** The reason of an admin's decision, in its confirm dialog: the person it concerns reads it. Its error is the one ConfirmActions shows, under `errorId`. */
export function ConfirmReason({ id, label, error, errorId }: { id: string; label: string; error?: string; errorId: string }) {
  return (
    <div className="mt-4">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        name="reason"
        required
        maxLength={REASON_MAX}
        rows={3}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
    </div>
  );
}
