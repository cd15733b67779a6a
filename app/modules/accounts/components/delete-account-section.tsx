import { Form } from "react-router";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Field } from "~/ui/field";
import { Section } from "~/ui/section";

// Settings → Delete account (issue 28, docs/decisions/0213). With a password: the password and a
// confirmation box. A Google-only account signs in with Google again first (the form then accepts
// no password for 10 minutes). Plain forms: it works before hydration.

export function DeleteAccountSection({ hasPassword, errors, busy }: { hasPassword: boolean; errors: Record<string, string>; busy: boolean }) {
  return (
    <Card>
      <Section id="delete-heading" title="Delete account" headingClassName="text-lg font-semibold text-red-800">
        <div className="mt-1 space-y-1 text-sm text-slate-600">
          <p>Every session signs out at once. For 30 days your account is frozen: sign in during that time to keep it or to download your data.</p>
          <p>
            After 30 days we delete or anonymise your personal data: profile, channels and their YouTube access, uploads, notifications. Your chat messages stay
            in their rooms as from “Deleted user”. Earnings and payout records are kept for six years without your name, as UK tax law requires.
          </p>
          <p>
            Money you have earned is still yours: it is paid to your connected Stripe account on the usual payout days, without e-mails from us. No payout
            account connected? Connect one before you delete your account, or contact us before the 30 days are over.
          </p>
        </div>
        {!hasPassword ? (
          <Form method="post" action="/auth/google" className="mt-4">
            <input type="hidden" name="redirectTo" value="/settings#delete-heading" />
            <p className="text-sm text-slate-700">Your account signs in with Google. Sign in with Google again, then delete it here within 10 minutes.</p>
            <Button type="submit" variant="secondary" className="mt-2">
              Sign in with Google again
            </Button>
          </Form>
        ) : null}
        <Form method="post" className="mt-4 space-y-4" noValidate>
          <input type="hidden" name="intent" value="delete-account" />
          {hasPassword ? <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} /> : null}
          <div>
            <label className="flex items-start gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                name="confirm"
                value="yes"
                required
                aria-invalid={errors.confirm ? true : undefined}
                aria-describedby={errors.confirm ? "delete-confirm-error" : undefined}
                className="mt-0.5 size-4 rounded border-slate-400"
              />
              <span>I understand: my account will be deleted in 30 days unless I sign in and keep it.</span>
            </label>
            {errors.confirm ? (
              <p id="delete-confirm-error" className="mt-1 text-sm text-red-700">
                {errors.confirm}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="danger" disabled={busy}>
            Delete my account
          </Button>
        </Form>
      </Section>
    </Card>
  );
}
