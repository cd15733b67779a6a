import { data, redirect } from "react-router";
import { fieldErrors, signInSchema, signUpSchema, titleForField, type FieldErrors } from "./schema";
import { safeRedirect } from "~/lib/permissions";
import { sanitizeStrict } from "~/lib/sanitize";
import { audit } from "~/platform/audit.server";
import { signIn, signUp } from "./auth.server";
import { appName } from "~/platform/env.server";
import { getOptionalUser, type GuardArgs } from "./guards.server";
import { setToastCookie } from "~/platform/toast.server";

const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type AuthActionData = {
  ok: false;
  intent: "signin" | "signup";
  errors: FieldErrors;
  toast: { title: string; description: string };
};

/** What the sign-in/sign-up screen reads from its address (spec section 2). */
export function authParams(request: Request, preset: { agencySlug?: string; agencyName?: string; mode?: "signup" } = {}) {
  const url = new URL(request.url);
  const q = (name: string) => url.searchParams.get(name)?.trim() ?? "";
  return {
    mode: (preset.mode ?? (q("mode") === "signup" ? "signup" : "signin")) as "signin" | "signup",
    referralCode: q("ref").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64),
    clipper: q("clipper") === "1",
    agencySlug: preset.agencySlug ?? q("agency_slug").toLowerCase().replace(/[^a-z0-9-]/g, "").slice(0, 64),
    agencyName: preset.agencyName ?? q("agency_name").slice(0, 100),
    agencyToken: q("token").slice(0, 128),
    redirectTo: safeRedirect(q("redirectTo") || null, ""),
  };
}

/** Loader of the auth screen: a signed-in visitor goes to the dashboard. */
export async function authLoader(args: GuardArgs) {
  const user = await getOptionalUser(args);
  if (user && !user.isBanned) throw redirect("/dashboard");
  return null;
}

/** The action behind every sign-in/sign-up form (also the agency sign-up screens). */
export async function authAction(args: GuardArgs, preset: { agencySlug?: string; agencyName?: string } = {}) {
  const { request } = args;
  const form = await request.formData();
  const intent = form.get("intent") === "signup" ? "signup" : "signin";
  const raw = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;

  if (intent === "signin") {
    const parsed = signInSchema.safeParse(raw);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      const [field, message] = Object.entries(errors)[0];
      return data<AuthActionData>(
        { ok: false, intent, errors, toast: { title: titleForField(field, message), description: message } },
        { status: 400 },
      );
    }
    const result = await signIn(request, parsed.data.email, parsed.data.password);
    if (!result.ok) {
      return data<AuthActionData>(
        { ok: false, intent, errors: {}, toast: result.toast },
        { status: result.status, headers: result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined },
      );
    }
    const headers = new Headers();
    headers.append("Set-Cookie", result.setCookie);
    headers.append(
      "Set-Cookie",
      await setToastCookie(request, {
        type: "success",
        title: "Welcome back!",
        description: `Successfully logged in to your ${appName()} account`,
      }),
    );
    throw redirect(safeRedirect(raw.redirectTo), { headers });
  }

  // The referral code goes through the strict sanitizer; a code of the wrong shape is dropped
  // and logged (INVALID_INPUT_REJECTED), the sign-up itself goes on.
  if (raw.referralCode) {
    const checked = sanitizeStrict(raw.referralCode, [REFERRAL_CODE_PATTERN]);
    if (!checked.ok) {
      await audit({ eventType: "INVALID_INPUT_REJECTED", severity: "medium", request, details: { field: "referral_code" } });
      raw.referralCode = "";
    } else {
      raw.referralCode = checked.value;
    }
  }
  const parsed = signUpSchema.safeParse({
    ...raw,
    agencySlug: preset.agencySlug ?? raw.agencySlug,
    agencyName: preset.agencyName ?? raw.agencyName,
  });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const [field, message] = Object.entries(errors)[0];
    return data<AuthActionData>(
      { ok: false, intent, errors, toast: { title: titleForField(field, message), description: message } },
      { status: 400 },
    );
  }
  try {
    const result = await signUp(request, parsed.data);
    if (!result.ok) {
      return data<AuthActionData>(
        { ok: false, intent, errors: {}, toast: result.toast },
        { status: result.status, headers: result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined },
      );
    }
  } catch (error) {
    console.error("sign-up failed", error);
    return data<AuthActionData>(
      { ok: false, intent, errors: {}, toast: { title: "An error occurred", description: "Please try again later." } },
      { status: 500 },
    );
  }
  // Back to sign-in mode with 'Account created!'.
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    await setToastCookie(request, {
      type: "success",
      title: "Account created!",
      description: "Check your e-mail to confirm your address. Your account will then be reviewed.",
    }),
  );
  throw redirect("/auth?created=1", { headers });
}
