import { useId, useState } from "react";
import { Field } from "~/ui/field";
import { PASSWORD_RULES } from "../messages";

// The account fields every sign-up form shares (creator, agency application, music partner), and
// the live password checklist (also on the reset and settings screens). Moved here from
// app/components/forms.tsx: they know the accounts module's password rules.

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
      <NewPasswordFields label="Password" password={password} onPasswordChange={setPassword} errors={errors} />
    </>
  );
}

/**
 * A new password with the live checklist, and its confirmation ("Confirm password" for the label
 * "Password"): on sign-up, on the reset screen and in settings. The caller holds the value.
 */
export function NewPasswordFields({
  label,
  password,
  onPasswordChange,
  errors,
  required = true,
}: {
  label: "Password" | "New password";
  password: string;
  onPasswordChange: (password: string) => void;
  errors: Record<string, string | undefined>;
  required?: boolean;
}) {
  return (
    <>
      <Field
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        required={required}
        value={password}
        onChange={(e) => onPasswordChange(e.currentTarget.value)}
        error={errors.password}
        hint={<PasswordChecklist password={password} />}
      />
      <Field
        label={`Confirm ${label.toLowerCase()}`}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required={required}
        error={errors.confirmPassword}
      />
    </>
  );
}

/** A labelled checkbox with its error linked (its ids generated unless given). */
export function Checkbox({
  name,
  error,
  children,
  id,
  errorId,
  ...rest
}: { name: string; error?: string; errorId?: string; children: React.ReactNode } & React.InputHTMLAttributes<HTMLInputElement>) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const describedBy = errorId ?? `${inputId}-error`;
  return (
    <div className="space-y-1">
      <div className="flex items-start gap-2">
        <input
          id={inputId}
          name={name}
          type="checkbox"
          className="mt-1 h-4 w-4"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? describedBy : undefined}
          {...rest}
        />
        <label htmlFor={inputId} className="text-sm text-slate-700">
          {children}
        </label>
      </div>
      {error ? (
        <p id={describedBy} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
