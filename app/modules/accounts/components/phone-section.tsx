import { Form, useNavigation } from "react-router";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Field } from "~/ui/field";
import { InlineFieldForm } from "~/ui/inline-field-form";
import { Section } from "~/ui/section";
import type { PhoneState } from "../schema";

// The phone number section of Settings (docs/decisions/0075): add a number, check it once with
// the 6-digit code sent by text, change or remove it. Plain forms: it works before hydration.

export function PhoneSection({ phone, errors, busy }: { phone: PhoneState; errors: Record<string, string>; busy: boolean }) {
  const navigation = useNavigation();
  const pendingIntent = navigation.formData?.get("intent");
  const waiting = !phone.verified && phone.phone !== null;
  return (
    <Card>
      <Section id="phone-heading" title="Phone number">
        <p className="mt-1 text-sm text-slate-600">Sign in with your phone number and password. We check the number once with a code sent by text.</p>

        {phone.phone ? (
          <div className="mt-4 flex flex-col gap-3 rounded-md border border-slate-200 p-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
              <span className="tabular-nums">{phone.phone}</span>
              {phone.verified ? <Badge tone="green">Verified</Badge> : <Badge tone="amber">Not verified</Badge>}
            </p>
            <Form method="post">
              <input type="hidden" name="intent" value="phone-remove" />
              <Button type="submit" variant="dangerOutline" disabled={busy}>
                Remove number
              </Button>
            </Form>
          </div>
        ) : null}

        {waiting && phone.codeSent ? (
          <InlineFieldForm intent="phone-verify" className="mt-4" noValidate busy={busy} submit={pendingIntent === "phone-verify" ? "Verifying..." : "Verify"}>
            <Field
              className="sm:w-56"
              label="Verification code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              required
              hint={`Sent by text to ${phone.phone}. Valid for 10 minutes.`}
              error={errors.code}
            />
          </InlineFieldForm>
        ) : null}

        {waiting ? (
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="phone-send" />
            <input type="hidden" name="phone" value={phone.phone ?? ""} />
            <Button type="submit" disabled={busy}>
              {phone.codeSent ? "Send a new code" : "Send code"}
            </Button>
          </Form>
        ) : null}

        <InlineFieldForm
          key={phone.phone ?? "none"}
          intent="phone-send"
          className="mt-4 border-t border-slate-100 pt-4"
          noValidate
          busy={busy}
          variant={waiting ? "secondary" : "primary"}
          submit={pendingIntent === "phone-send" ? "Sending..." : "Send code"}
        >
          <Field
            className="sm:flex-1"
            label={phone.phone ? "New phone number" : "Phone number"}
            name="phone"
            type="tel"
            autoComplete="tel"
            placeholder="+44 7700 900123"
            required
            hint="International format: + and the country code first."
            error={errors.phone}
          />
        </InlineFieldForm>
        {phone.verified ? (
          <p className="mt-2 text-xs text-slate-600">Sending a code to a new number replaces this one; the new number signs in once verified.</p>
        ) : null}
      </Section>
    </Card>
  );
}
