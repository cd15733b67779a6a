import { data, Form, redirect } from "react-router";
import { SubmitButton } from "~/ui/button";
import { Field } from "~/ui/field";
import { STAND_IN_ACCOUNTS, accountFromChoice, issueCode, standInChoiceSchema } from "~/dev/dev-oauth.server";
import { isActionFailure } from "~/lib/errors";
import { devToolsEnabled, env } from "~/platform/env.server";
import { domainAction } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import type { Route } from "./+types/oauth-authorize";

// The stand-in provider's consent screen: pick an account (development builds, DEV_TOOLS only).
function check(request: Request) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const url = new URL(request.url);
  const redirectUri = url.searchParams.get("redirect_uri") ?? "";
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    throw data("Invalid redirect_uri", { status: 400 });
  }
  if (target.origin !== url.origin) throw data("redirect_uri must be this app", { status: 400 });
  if (url.searchParams.get("client_id") !== env.GOOGLE_CLIENT_ID) throw data("Unknown client_id", { status: 400 });
  if (url.searchParams.get("code_challenge_method") !== "S256") throw data("PKCE S256 required", { status: 400 });
  return { url, target };
}

export function loader({ request }: Route.LoaderArgs) {
  const { url } = check(request);
  return { accounts: STAND_IN_ACCOUNTS, scope: url.searchParams.get("scope") ?? "" };
}

export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  const { url, target } = check(request);
  const choice = await parseForm(request, standInChoiceSchema);
  target.searchParams.set("state", url.searchParams.get("state") ?? "");
  if (choice.intent === "cancel") {
    target.searchParams.set("error", "access_denied");
    return redirect(target.toString());
  }
  target.searchParams.set("code", await issueCode(url.searchParams, accountFromChoice(choice)));
  return redirect(target.toString());
}, "Sign-in failed");

export const meta = () => [{ title: "Sign in with Google (stand-in)" }];

export default function Authorize({ loaderData, actionData }: Route.ComponentProps) {
  const emailError = isActionFailure(actionData) ? actionData.errors.email : undefined;
  return (
    <main className="mx-auto max-w-md p-6">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">Local stand-in provider</p>
        <h1 className="mt-1 text-xl font-bold text-slate-900">Choose an account</h1>
        <p className="mt-1 text-sm text-slate-600">to continue to Shortbeat{loaderData.scope ? ` (scopes: ${loaderData.scope})` : ""}</p>
        <ul className="mt-4 space-y-2">
          {loaderData.accounts.map((a) => (
            <li key={a.sub}>
              <Form method="post">
                <input type="hidden" name="account" value={a.sub} />
                <button type="submit" className="flex w-full flex-col rounded-lg border border-slate-200 px-4 py-3 text-left hover:bg-slate-50">
                  <span className="font-semibold text-slate-900">{a.name}</span>
                  <span className="text-sm text-slate-600">
                    {a.email}
                    {a.email_verified ? "" : " (unverified)"}
                  </span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
        <Form method="post" className="mt-6 space-y-3 border-t border-slate-200 pt-4">
          <p className="text-sm font-semibold text-slate-800">Use another account</p>
          <Field label="Name" name="name" autoComplete="off" />
          <Field label="Email" name="email" type="email" autoComplete="off" error={emailError} />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="unverified" className="size-4" />
            Google reports this e-mail as unverified
          </label>
          <SubmitButton>Continue</SubmitButton>
        </Form>
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="w-full rounded-md px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Cancel
          </button>
        </Form>
      </div>
    </main>
  );
}
