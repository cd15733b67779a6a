import { Form, useNavigation } from "react-router";
import { settingsSchema } from "~/modules/admin/schema";
import { DEFAULT_SETTINGS, SETTING_KEYS, type AppSettings } from "~/lib/settings";
import { buttonClass } from "~/ui/button";
import { formatDateTime } from "~/lib/dates";
import { inputClass } from "~/ui/field";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Card } from "~/ui/card";
import { PageHeader } from "~/ui/page-header";
import { saveSettings, settingsPage } from "~/modules/admin/admin.server";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/settings";
import { useActionFailure } from "~/ui/action-failure";

export const meta = () => [{ title: "App settings | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  return settingsPage(actorOf(admin));
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const input = await parseForm(args.request, settingsSchema);
  const changed = await saveSettings(actorOf(admin), input, args.request);
  return redirectWithToast(args.request, "/admin/settings", {
    type: "success",
    title: changed.length ? "Settings saved" : "No changes",
    description: changed.length ? "The new values apply everywhere within 30 seconds." : "Every value was already in force.",
  });
}, "Settings not saved");

type FieldDef = { name: keyof AppSettings; label: string; hint: string; min: number; max: number; suffix: string };

const SECTIONS: { title: string; description: string; fields: FieldDef[] }[] = [
  {
    title: "Payments",
    description: "What new statements use. Creators with a revised share keep theirs.",
    fields: [
      {
        name: "creatorSharePercent",
        label: "Standard creator share",
        hint: "Of net revenue from licensed music.",
        min: 1,
        max: 100,
        suffix: "%",
      },
      {
        name: "payoutDayOfMonth",
        label: "Payout day",
        hint: "Day of the month payouts go out (1–28), once funds are received.",
        min: 1,
        max: 28,
        suffix: "of the month",
      },
      {
        name: "payoutMinimumUsd",
        label: "Minimum payout",
        hint: "A payable balance below it carries over to the next payout day.",
        min: 1,
        max: 10000,
        suffix: "USD",
      },
      {
        name: "referralBonusBp",
        label: "Referral bonus",
        hint: "Share of a referred creator's music earnings in the first 12 months of their term, paid from the platform's side. 0 = off; 100 = 1%.",
        min: 0,
        max: 3000,
        suffix: "basis points",
      },
    ],
  },
  {
    title: "Abuse limits",
    description: "Counted per connecting address (and per account where it applies). Windows are fixed.",
    fields: [
      {
        name: "signupLimitPerHour",
        label: "Sign-up attempts per hour",
        hint: "Sign-up, agency and music partner sign-up forms.",
        min: 1,
        max: 1000,
        suffix: "per hour",
      },
      {
        name: "genericLimitPer15Min",
        label: "Attempts per 15 minutes",
        hint: "Sign-in per account, password reset, recovery and other sensitive forms.",
        min: 1,
        max: 100,
        suffix: "per 15 min",
      },
      {
        name: "suspiciousLimitPer15Min",
        label: "Suspicious-activity threshold",
        hint: "Failed attempts from one address before SUSPICIOUS_ACTIVITY_DETECTED is logged and the action denied.",
        min: 1,
        max: 1000,
        suffix: "per 15 min",
      },
    ],
  },
];

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, history } = loaderData;
  const navigation = useNavigation();
  const failure = useActionFailure(actionData);
  const errors = failure?.errors ?? {};
  const changedAt = (field: keyof AppSettings) => history.find((h) => h.key === SETTING_KEYS[field]);

  return (
    <>
      <PageHeader title="App settings" description="Standard share, payout day and abuse limits. Every change is audit-logged." />
      <Form method="post" className="space-y-6" noValidate>
        {SECTIONS.map((section) => (
          <Card key={section.title}>
            <fieldset>
              <legend className="text-lg font-semibold text-slate-900">{section.title}</legend>
              <p className="mt-1 text-sm text-slate-600">{section.description}</p>
              <div className="mt-4 grid gap-5 md:grid-cols-2">
                {section.fields.map((f) => {
                  const id = `setting-${f.name}`;
                  const changed = changedAt(f.name);
                  return (
                    <div key={f.name}>
                      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
                        {f.label}
                      </label>
                      <div className="flex items-center gap-2">
                        <input
                          id={id}
                          name={f.name}
                          type="number"
                          inputMode="numeric"
                          required
                          min={f.min}
                          max={f.max}
                          step={1}
                          defaultValue={settings[f.name]}
                          aria-invalid={errors[f.name] ? true : undefined}
                          aria-describedby={`${id}-hint${errors[f.name] ? ` ${id}-error` : ""}`}
                          className={`${inputClass} max-w-[8rem]`}
                        />
                        <span className="mt-1 text-sm text-slate-600">{f.suffix}</span>
                      </div>
                      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
                        {f.hint} Default {DEFAULT_SETTINGS[f.name]}.
                        {changed ? ` Changed ${formatDateTime(changed.updatedAt)}${changed.updatedByEmail ? ` by ${changed.updatedByEmail}` : ""}.` : ""}
                      </p>
                      {errors[f.name] ? (
                        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
                          {errors[f.name]}
                        </p>
                      ) : null}
                    </div>
                  );
                })}
              </div>
            </fieldset>
          </Card>
        ))}
        <div className="flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? "Saving..." : "Save settings"}
          </button>
        </div>
      </Form>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
