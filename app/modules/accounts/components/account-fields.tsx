import { useState } from "react";
import { Field } from "~/ui/field";
import { PASSWORD_RULES } from "../schema";

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
