import { Form } from "react-router";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Section } from "~/ui/section";
import { NewPasswordFields } from "./account-fields";

// Settings → Set a password, for an account that only ever signed in with Google (docs/decisions/0325).
// It has no current password to give: a Google sign-in of the last 10 minutes stands for it, as for
// deleting such an account (0213). Plain forms: it works before hydration.

export function SetPasswordSection({
  password,
  onPasswordChange,
  errors,
  busy,
}: {
  password: string;
  onPasswordChange: (password: string) => void;
  errors: Record<string, string>;
  busy: boolean;
}) {
  return (
    <Card>
      <Section id="set-password" title="Set a password" headingClassName="text-lg font-semibold text-slate-900">
        <p className="mt-1 text-sm text-slate-600">
          Your account signs in with Google. Add a password to sign in with your e-mail too. Setting it signs out every other session.
        </p>
        <Form method="post" action="/auth/google" className="mt-4">
          <input type="hidden" name="redirectTo" value="/settings#set-password" />
          <p className="text-sm text-slate-700">For your security, sign in with Google again first, then set your password here within 10 minutes.</p>
          <Button type="submit" variant="secondary" className="mt-2">
            Sign in with Google again
          </Button>
        </Form>
        <Form method="post" className="mt-4 space-y-4" noValidate>
          <input type="hidden" name="intent" value="set-password" />
          <NewPasswordFields label="New password" password={password} onPasswordChange={onPasswordChange} errors={errors} />
          <Button type="submit" disabled={busy}>
            Set password
          </Button>
        </Form>
      </Section>
    </Card>
  );
}
