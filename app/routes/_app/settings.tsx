import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "~/ui/toaster";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/ui/field";
import { Card } from "~/ui/card";
import { LocalTime } from "~/ui/local-time";
import { formatDate, timeZoneFromCookie } from "~/lib/dates";
import { PageHeader } from "~/ui/page-header";
import { isActionFailure } from "~/lib/errors";
import { changePassword, setFirstPassword, endOtherSessions, endSessionByPrefix, listSessions, parseAccountForm } from "~/modules/accounts/accounts.server";
import { phoneSettings, removePhone, sendPhoneCode, verifyPhoneCode } from "~/modules/accounts/accounts.server";
import { accountHasPassword, clearSessionCookie, emailSettings, requestAccountDeletion, setNewsEmails } from "~/modules/accounts/accounts.server";
import { DeleteAccountSection } from "~/modules/accounts/components/delete-account-section";
import { SetPasswordSection } from "~/modules/accounts/components/set-password-section";
import { PhoneSection } from "~/modules/accounts/components/phone-section";
import { NewPasswordFields } from "~/modules/accounts/components/account-fields";
import { requireUser } from "~/modules/accounts/guards.server";
import { settingsFieldTitle, settingsFormSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/settings";

export const meta = () => [{ title: "Settings | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const [sessions, phone, email, hasPassword] = await Promise.all([listSessions(user.id), phoneSettings(user), emailSettings(user), accountHasPassword(user)]);
  return {
    phone,
    email,
    sessions: sessions.map((s) => ({ ...s, current: s.id === user.sessionId, id: s.id.slice(0, 12) })),
    hasPassword,
  };
}

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireUser(args);
  const { request } = args;
  const input = await parseAccountForm(request, settingsFormSchema, settingsFieldTitle);
  switch (input.intent) {
    case "sign-out-others":
      await endOtherSessions(request, user);
      return {
        ok: true as const,
        toast: { title: "Signed out other sessions", description: "Every other browser and device has been signed out." },
      };
    case "sign-out-session":
      await endSessionByPrefix(user, input.session);
      return { ok: true as const, toast: { title: "Session signed out", description: "That session has been signed out." } };
    case "phone-send":
      await sendPhoneCode(request, user, input.phone);
      return { ok: true as const, toast: { title: "Code sent", description: `We sent a 6-digit code to ${input.phone}.` } };
    case "phone-verify":
      await verifyPhoneCode(request, user, input.code);
      return { ok: true as const, toast: { title: "Phone number verified", description: "You can now sign in with it and your password." } };
    case "phone-remove":
      await removePhone(request, user);
      return { ok: true as const, toast: { title: "Phone number removed", description: "It no longer signs in to your account." } };
    case "email-updates":
      await setNewsEmails(request, user, input.news);
      return {
        ok: true as const,
        toast: input.news
          ? { title: "E-mail updates on", description: "You will get tips, summaries and campaign news by e-mail." }
          : { title: "E-mail updates off", description: "You will only get account and payment e-mails." },
      };
    case "delete-account": {
      const { dueAt } = await requestAccountDeletion(request, user, input);
      return redirectWithToast(
        request,
        "/auth",
        {
          type: "success",
          title: "Account scheduled for deletion",
          description: `Every session has been signed out. Your data will be deleted on ${formatDate(dueAt, timeZoneFromCookie(request.headers.get("Cookie")))}; sign in before then to keep your account.`,
        },
        { headers: { "Set-Cookie": clearSessionCookie(request) } },
      );
    }
    case "set-password": {
      // A Google-only account's first password (docs/decisions/0325): every other session ends.
      const { setCookie } = await setFirstPassword(request, user, input);
      return redirectWithToast(
        request,
        "/settings",
        {
          type: "success",
          title: "Password set",
          description: "You can now sign in with your e-mail and this password too. Your other sessions have been signed out.",
        },
        { headers: { "Set-Cookie": setCookie } },
      );
    }
    case "change-password": {
      const { setCookie } = await changePassword(request, user, input);
      return redirectWithToast(
        request,
        "/settings",
        { type: "success", title: "Password updated", description: "Your other sessions have been signed out." },
        { headers: { "Set-Cookie": setCookie } },
      );
    }
  }
});

function describeAgent(ua: string | null): string {
  if (!ua) return "Unknown device";
  const browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Mac OS X/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [password, setPassword] = useState("");
  const errors: Record<string, string> = isActionFailure(actionData) ? actionData.errors : {};
  useEffect(() => {
    if (!actionData) return;
    (actionData.ok ? toast.success : toast.error)(actionData.toast.title, { description: actionData.toast.description });
    if (actionData.ok) setPassword("");
  }, [actionData]);
  const others = loaderData.sessions.filter((s) => !s.current).length;
  return (
    <div className="max-w-3xl">
      <PageHeader title="Settings" description="Your password, phone number, e-mails, the places you are signed in, and your data." />
      <div className="grid gap-6">
        {loaderData.hasPassword ? (
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">Change password</h2>
            <p className="mt-1 text-sm text-slate-600">Changing it signs out every other session.</p>
            <Form method="post" className="mt-4 space-y-4" noValidate>
              <input type="hidden" name="intent" value="change-password" />
              <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={errors.currentPassword} />
              <NewPasswordFields label="New password" password={password} onPasswordChange={setPassword} errors={errors} />
              <button
                type="submit"
                disabled={busy}
                className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
              >
                Update password
              </button>
            </Form>
          </Card>
        ) : (
          <SetPasswordSection password={password} onPasswordChange={setPassword} errors={errors} busy={busy} />
        )}

        <PhoneSection phone={loaderData.phone} errors={errors} busy={busy} />

        <Card>
          <h2 id="email" className="text-lg font-semibold text-slate-900">
            E-mails
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Account and payment e-mails (verification, password reset, approvals, earnings and payouts) are always sent.
          </p>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="email-updates" />
            <label className="flex items-start gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                name="news"
                defaultChecked={loaderData.email.news}
                key={String(loaderData.email.news)}
                className="mt-0.5 size-4 rounded border-slate-400"
              />
              <span>
                <span className="font-medium">Updates by e-mail</span>
                <span className="block text-slate-600">Reminders when you have been away, weekly summaries and campaign news. Unsubscribe any time.</span>
              </span>
            </label>
            <button
              type="submit"
              disabled={busy}
              className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50"
            >
              Save e-mail settings
            </button>
          </Form>
        </Card>

        <Card>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <h2 className="text-lg font-semibold text-slate-900">Sessions</h2>
              <p className="mt-1 text-sm text-slate-600">Where your account is signed in.</p>
            </div>
            <Form method="post">
              <input type="hidden" name="intent" value="sign-out-others" />
              <button
                type="submit"
                disabled={others === 0 || busy}
                className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50"
              >
                Sign out other sessions
              </button>
            </Form>
          </div>
          <ul className="mt-4 divide-y divide-slate-100">
            {loaderData.sessions.map((s) => (
              <li key={s.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div>
                  <p className="font-medium text-slate-900">
                    {describeAgent(s.userAgent)}
                    {s.current ? <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">This device</span> : null}
                  </p>
                  <p className="text-xs text-slate-500">
                    Signed in <LocalTime iso={s.createdAt} withTime /> · last active <LocalTime iso={s.lastSeenAt} withTime />
                    {s.ip ? ` · ${s.ip}` : ""}
                  </p>
                </div>
                {!s.current ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="sign-out-session" />
                    <input type="hidden" name="session" value={s.id} />
                    <button type="submit" className="rounded-md px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50">
                      Sign out
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>

        <Card>
          <h2 id="data" className="text-lg font-semibold text-slate-900">
            Your data
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Download a copy of everything we hold about you (a JSON file), as our{" "}
            <a href="/privacy-policy#your-rights" className="font-medium text-brand-700 underline">
              privacy policy
            </a>{" "}
            promises.
          </p>
          <a
            href="/settings/export"
            download
            className="mt-4 inline-flex rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Download my data
          </a>
        </Card>

        <DeleteAccountSection hasPassword={loaderData.hasPassword} errors={errors} busy={busy} />
      </div>
    </div>
  );
}

export { retryAfterHeaders as headers } from "~/lib/toast";

export const ErrorBoundary = GeneralErrorBoundary;
