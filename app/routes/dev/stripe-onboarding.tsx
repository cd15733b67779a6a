import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { bankFieldsFor } from "~/dev/dev-stripe-countries";
import { onboardingLink, setAccountState, useOnboardingLink } from "~/dev/dev-stripe.server";
import { parseForm } from "~/platform/body.server";
import { devToolsEnabled } from "~/platform/env.server";
import { domainAction } from "~/platform/http.server";
import { Button } from "~/ui/button";
import { Field } from "~/ui/field";
import type { Route } from "./+types/stripe-onboarding";

// The Stripe stand-in's hosted onboarding (development builds, DEV_TOOLS only): what Stripe's Express
// onboarding does for Shortbeat, in one page. Each button finishes the one-time link the way a person
// can at Stripe, then returns to the app's return URL; a used or expired link goes to its refresh URL.

const choiceSchema = z.object({ outcome: z.enum(["complete", "verifying", "restricted", "incomplete"]) });

async function found(link: string) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const f = await onboardingLink(link);
  if (!f) throw data("This set-up link does not exist.", { status: 404 });
  if (!f.usable) throw redirect(f.link.refreshUrl);
  return f;
}

export async function loader({ params }: Route.LoaderArgs) {
  const f = await found(params.link);
  const country = f.account?.country ?? "US";
  // The account's own country's bank details, as Stripe's onboarding asks for them (a sort code in the UK, an IBAN in the EEA).
  return { email: f.account?.email ?? "", country, account: f.link.account, bankFields: bankFieldsFor(country) };
}

export const action = domainAction(async ({ request, params }: Route.ActionArgs) => {
  await found(params.link);
  const { outcome } = await parseForm(request, choiceSchema);
  const link = await useOnboardingLink(params.link);
  if (!link) throw data("This set-up link was already used.", { status: 409 });
  await setAccountState(link.account, outcome, request);
  return redirect(link.returnUrl);
}, "Set-up failed");

export const meta = () => [{ title: "Set up payouts (Stripe stand-in)" }];

export default function StandInOnboarding({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-lg p-6">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">Local Stripe stand-in</p>
        <h1 className="mt-1 text-xl font-bold text-slate-900">Get paid by Shortbeat</h1>
        <p className="mt-1 text-sm text-slate-600">
          Shortbeat partners with Stripe for payouts. Account {loaderData.account} · {loaderData.email} · {loaderData.country}
        </p>
        <Form method="post" className="mt-4 space-y-3">
          <Field label="Legal name" name="name" defaultValue="Test Person" />
          {loaderData.bankFields.map((f) => (
            <Field key={f.name} label={f.label} name={f.name} defaultValue={f.value} />
          ))}
          <div className="flex flex-col gap-2 pt-2">
            <Button type="submit" name="outcome" value="complete" variant="primary">
              Complete set-up
            </Button>
            <Button type="submit" name="outcome" value="verifying">
              Submit, and let Stripe verify the details
            </Button>
            <Button type="submit" name="outcome" value="restricted">
              Submit without an ID number (restricted)
            </Button>
            <Button type="submit" name="outcome" value="incomplete">
              Save and finish later
            </Button>
          </div>
        </Form>
      </div>
    </main>
  );
}
