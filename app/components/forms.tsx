import { PASSWORD_RULES } from "~/modules/accounts/schema";
import { useId, useState, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";

type Described = { id: string; describedBy: string | undefined; error?: string; hint?: ReactNode };

function useDescribed(error?: string, hint?: ReactNode): Described {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return { id, describedBy, error, hint };
}

const controlClass = (error?: string) =>
  `mt-1 block w-full rounded-md border px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 ${
    error ? "border-red-500" : "border-slate-300"
  }`;

/** Label above, hint and error below, both linked to the control (aria-describedby). */
function FieldFrame({ d, label, className, children }: { d: Described; label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={d.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {d.hint ? (
        <div id={`${d.id}-hint`} className="mt-1 text-xs text-slate-600">
          {d.hint}
        </div>
      ) : null}
      {d.error ? (
        <p id={`${d.id}-error`} className="mt-1 text-sm text-red-700">
          {d.error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input with its error announced and linked (aria-describedby). */
export function Field({
  label,
  name,
  error,
  hint,
  className = "",
  ...input
}: { label: ReactNode; name: string; error?: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const d = useDescribed(error, hint);
  return (
    <FieldFrame d={d} label={label} className={className}>
      <input id={d.id} name={name} aria-invalid={error ? true : undefined} aria-describedby={d.describedBy} className={controlClass(error)} {...input} />
    </FieldFrame>
  );
}

export function SubmitButton({ children, disabled, className = "", ...rest }: React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="submit"
      disabled={disabled}
      className={`inline-flex w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50 ${className}`}
      {...rest}
    >
      {children}
    </button>
  );
}

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </div>
  );
}

/** The live list of password requirements (spec section 5), ticked as the user types. */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <ul aria-label="Password requirements" className="mt-1 grid gap-0.5 sm:grid-cols-2">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <li key={rule.id} className={met ? "text-emerald-700" : "text-slate-600"}>
            <span aria-hidden="true">{met ? "✓" : "○"}</span> {rule.label}
            <span className="sr-only">{met ? " (met)" : " (not met)"}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** A labelled multi-line input with its error and hint linked. */
export function TextArea({
  label,
  name,
  error,
  hint,
  ...rest
}: { label: string; name: string; error?: string; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const d = useDescribed(error, hint);
  return (
    <FieldFrame d={d} label={label}>
      <textarea id={d.id} name={name} aria-invalid={error ? true : undefined} aria-describedby={d.describedBy} className={controlClass(error)} {...rest} />
    </FieldFrame>
  );
}

/**
 * The account part of every sign-up form (creator, agency application, music partner): full
 * name, e-mail, password with the live checklist, and its confirmation.
 */
export function NewAccountFields({ errors }: { errors: Record<string, string | undefined> }) {
  const [password, setPassword] = useState("");
  return (
    <>
      <Field label="Full name" name="fullName" autoComplete="name" required maxLength={100} error={errors.fullName} />
      <Field label="Email" name="email" type="email" autoComplete="email" required maxLength={254} error={errors.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={errors.password}
        hint={<PasswordChecklist password={password} />}
      />
      <Field label="Confirm password" name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} />
    </>
  );
}
