import { z } from "zod";
import { EMAIL_MAX, NAME_MAX } from "~/lib/constants";
import type { FieldErrors } from "~/lib/errors";
import { checkbox } from "~/lib/forms";
import { sanitizeLine } from "~/lib/sanitize";
import { MESSAGES, PASSWORD_MAX_LENGTH, PHONE_MESSAGES, firstUnmetPasswordRule, titleForField } from "./messages";

// The rules, messages and titles without zod live in ./messages (what the browser imports on a
// page's first load, docs/decisions/0086); re-exported here for the server and the other modules.
export { MESSAGES, PASSWORD_MAX_LENGTH, PASSWORD_RULES, PHONE_MESSAGES, firstUnmetPasswordRule, titleForField } from "./messages";

// One schema per form, used by the browser for instant feedback and by the action as the
// authority. Messages are product-spec.md section 5, word for word.

/** 'Your account has been banned' with the reason when there is one. */
export function bannedMessage(reason: string | null): string {
  return reason ? `Your account has been banned: ${reason}` : "Your account has been banned.";
}

/** 'Single @ with dotted domain', at most 254 characters. */
export function isValidEmail(email: string): boolean {
  if (email.length > EMAIL_MAX) return false;
  const parts = email.split("@");
  if (parts.length !== 2) return false;
  const [local, domain] = parts;
  if (!local || domain === undefined || /\s/.test(email)) return false;
  const labels = domain.split(".");
  return labels.length >= 2 && labels.every((l) => l.length > 0);
}

/**
 * An http(s) link with a real host: a dotted name whose last label is a top-level domain (letters,
 * or punycode), a full dotted IPv4 address, or localhost; the scheme may be left out. Written
 * against what was typed, not what the URL parser makes of it: it turns '0' into 0.0.0.0.
 */
export function isUrlShaped(value: string): boolean {
  const text = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/:]+:\d/.test(text) ? text : `https://${text}`;
  const typed = /^https?:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)/i.exec(withScheme)?.[1]?.toLowerCase() ?? "";
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  if (typed === "localhost") return true;
  if (/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(typed)) return typed.split(".").every((n) => Number(n) <= 255);
  const labels = url.hostname.split(".");
  const tld = labels[labels.length - 1] ?? "";
  return typed.includes(".") && labels.length >= 2 && labels.every((l) => l.length > 0) && /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld);
}

const email = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v.length <= EMAIL_MAX, { message: `Email must be ${EMAIL_MAX} characters or less.` })
  .refine(isValidEmail, { message: MESSAGES.invalidEmail });

const password = z
  .string()
  .max(PASSWORD_MAX_LENGTH, { message: `Password must be ${PASSWORD_MAX_LENGTH} characters or less.` })
  .superRefine((pw, ctx) => {
    const unmet = firstUnmetPasswordRule(pw);
    if (unmet) ctx.addIssue({ code: "custom", message: unmet });
  });

const count = (label: string) =>
  z
    .string()
    .trim()
    .min(1, { message: `${label} is required.` })
    .refine((v) => /^\d+$/.test(v), { message: `${label} must be a whole number of 0 or more.` })
    .transform((v) => Number.parseInt(v, 10))
    .refine((n) => Number.isSafeInteger(n) && n >= 0, { message: `${label} must be a whole number of 0 or more.` });

/** 'Passwords don't match' on the confirmation field. */
function passwordsMatch(v: { password: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  if (v.password !== v.confirmPassword) {
    ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: MESSAGES.passwordsMismatch });
  }
}

/** An agency slug as the sign-up form and the agency sign-up address carry it. */
export const normalizeAgencySlug = (v: string) =>
  v
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "");
/** An agency name as kept in the sign-up metadata. */
export const normalizeAgencyName = (v: string) => sanitizeLine(v).slice(0, NAME_MAX).trim();

// ---------------------------------------------------------------------------------------------
// Phone numbers (docs/decisions/0075): E.164 by a small hand-written check, no phone library in
// any browser bundle (the /auth screen validates with signInSchema).
// ---------------------------------------------------------------------------------------------

/** E.164: '+', then 8 to 15 digits, the first not 0 (country code and national number). */
const E164 = /^\+[1-9]\d{7,14}$/;

/** A phone number as people type it ('+44 7700 900123', '0044 (7700) 900-123') in E.164, or null. */
export function normalizePhone(raw: string): string | null {
  const compact = raw.trim().replace(/[\s().\-\u00a0]/g, "");
  const international = compact.startsWith("00") ? `+${compact.slice(2)}` : compact;
  return E164.test(international) ? international : null;
}

/** The sign-in field holds a phone number (no '@', starts like one) rather than an e-mail. */
export const looksLikePhone = (value: string) => !value.includes("@") && /^[+(\d]/.test(value.trim());

/** A phone number field: normalised to E.164, or the message. */
export const phoneNumber = z
  .string()
  .trim()
  .min(1, { message: "Phone number is required." })
  .max(32, { message: "Phone number must be 32 characters or less." })
  .transform((v, ctx) => {
    const phone = normalizePhone(v);
    if (phone) return phone;
    ctx.addIssue({ code: "custom", message: PHONE_MESSAGES.invalid });
    return z.NEVER;
  });

/** The sign-in identifier: an e-mail (lower-cased) or a phone number (E.164). */
const emailOrPhone = z.string().transform((v, ctx) => {
  const parsed = looksLikePhone(v) ? phoneNumber.safeParse(v) : email.safeParse(v);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? MESSAGES.invalidEmail });
  return z.NEVER;
});

/** The phone section of Settings: the number, whether it is verified, whether a code is waiting. */
export type PhoneState = { phone: string | null; verified: boolean; codeSent: boolean };

/** The one-time code of a text message: six digits (spaces typed between them are dropped). */
export const phoneCode = z
  .string()
  .transform((v) => v.replace(/\s/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, { message: PHONE_MESSAGES.code }));

export const signInSchema = z.object({
  // An e-mail or a verified phone number (spec section 2: 'e-mail (or phone) and password').
  email: z.string().trim().min(1, { message: "Email or phone is required." }).pipe(emailOrPhone),
  password: z.string().min(1, { message: "Password is required." }).max(PASSWORD_MAX_LENGTH),
});

/** A person's name: one line of plain text (docs/decisions/0287). */
const fullName = z
  .string()
  .transform((v) => sanitizeLine(v))
  .pipe(
    z
      .string()
      .min(1, { message: "Full name is required." })
      .max(NAME_MAX, { message: `Full name must be ${NAME_MAX} characters or less.` }),
  );

const signUpFields = {
  fullName,
  email,
  password,
  confirmPassword: z.string(),
  channelUrl: z
    .string()
    .trim()
    .min(1, { message: "Channel URL is required." })
    .max(500, { message: "Channel URL must be 500 characters or less." })
    .refine(isUrlShaped, { message: "Please enter a valid channel URL." }),
  subscribers: count("Subscribers"),
  monthlyViews: count("Monthly views"),
  acceptTerms: checkbox,
  wantsToBeClipper: checkbox,
  acceptClipperAgreement: checkbox,
  // As sent: the server passes it through the strict sanitizer (and logs a rejected one)
  // before it is used; see accounts/auth.server.ts signUp.
  referralCode: z.string().optional().default(""),
  /** A clipper invitation's code (from /auth?ref=CODE&clipper=1), used when both clipper boxes are ticked (docs/decisions/0205). */
  clipperInvitation: z
    .string()
    .optional()
    .default("")
    .transform((v) => v.trim().slice(0, 100)),
  agencySlug: z.string().trim().max(64).optional().default("").transform(normalizeAgencySlug),
  agencyName: z.string().optional().default("").transform(normalizeAgencyName),
  agencyToken: z.string().trim().max(128).optional().default(""),
  /** Where to go back after confirming the e-mail and signing in (a same-origin path; checked by safeRedirect where used). */
  redirectTo: z.string().max(500).optional().default(""),
};

/** The sign-up rules across fields, on the sign-up fields alone or with the form's intent. */
function signUpRules<T extends z.ZodObject<typeof signUpFields>>(fields: T) {
  return (
    fields
      .superRefine((v, ctx) => {
        passwordsMatch(v, ctx);
        if (!v.acceptTerms) ctx.addIssue({ code: "custom", path: ["acceptTerms"], message: MESSAGES.terms });
        if (v.wantsToBeClipper && !v.acceptClipperAgreement) {
          ctx.addIssue({ code: "custom", path: ["acceptClipperAgreement"], message: MESSAGES.clipper });
        }
      })
      // Unticking the clipper option clears its agreement.
      .transform((v) => ({ ...v, acceptClipperAgreement: v.wantsToBeClipper && v.acceptClipperAgreement }))
  );
}

export const signUpSchema = signUpRules(z.object(signUpFields));

export type SignUpInput = z.infer<typeof signUpSchema>;

/**
 * The sign-in/sign-up screen posts one of two forms, told apart by `intent`; anything but
 * 'signup' is a sign-in.
 */
export const authFormSchema = z.preprocess(
  (v) => ({ ...(v as object), intent: (v as { intent?: unknown })?.intent === "signup" ? "signup" : "signin" }),
  z.discriminatedUnion("intent", [
    signInSchema.extend({ intent: z.literal("signin"), redirectTo: z.string().optional() }),
    signUpRules(z.object({ ...signUpFields, intent: z.literal("signup") })),
  ]),
);

export type AuthFormInput = z.output<typeof authFormSchema>;

/**
 * Finishing a Google sign-up (docs/decisions/0324): the sign-up form's own fields and rules,
 * less what Google already proved (the e-mail) and what such an account does not have (a password).
 */
export const finishSignUpSchema = z
  .object(signUpFields)
  .pick({ fullName: true, channelUrl: true, subscribers: true, monthlyViews: true, acceptTerms: true })
  .superRefine((v, ctx) => {
    if (!v.acceptTerms) ctx.addIssue({ code: "custom", path: ["acceptTerms"], message: MESSAGES.terms });
  });

export type FinishSignUpInput = z.infer<typeof finishSignUpSchema>;

/** Toast titles of the screen's refusals that name none of their own (spec section 8). */
export const AUTH_FORM_TITLES = { signin: "Login failed", signup: "Sign up failed" };

/** The e-mail link's confirmation form; a missing or unknown token is the module's answer. */
export const verifyEmailSchema = z.object({ token: z.string().optional().default(""), redirectTo: z.string().optional() });

/** The Google button: the referral code, a clipper invitation and where to go after sign-in ride along. */
export const googleStartSchema = z.object({
  ref: z
    .string()
    .optional()
    .transform((v) => (v ?? "").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64) || null),
  /** A clipper invitation's code (docs/decisions/0205): used for a new account when `clipper` is ticked, kept for /clipping otherwise. */
  invite: z
    .string()
    .optional()
    .transform((v) => (v ?? "").replace(/[^A-Za-z0-9]/g, "").slice(0, 64) || null),
  redirectTo: z.string().optional(),
  /** The clipper option with its agreement, both ticked on the sign-up form (issue 16). */
  clipper: z
    .string()
    .optional()
    .transform((v) => (v === "1" || v === "on" ? true : undefined)),
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z.object({ token: z.string().min(10).max(200), password, confirmPassword: z.string() }).superRefine(passwordsMatch);

const changePasswordFields = {
  currentPassword: z.string().min(1, { message: "Current password is required." }).max(PASSWORD_MAX_LENGTH),
  password,
  confirmPassword: z.string(),
};
export const changePasswordSchema = z.object(changePasswordFields).superRefine(passwordsMatch);

/** A Google-only account's first password (docs/decisions/0325): no current password to ask for. */
const setPasswordFields = { password, confirmPassword: z.string() };

const PHONE_INTENTS = ["phone-send", "phone-verify", "phone-remove"] as const;
/** Issue 28: e-mail settings and deleting the account. */
const PRIVACY_INTENTS = ["email-updates", "delete-account"] as const;
const OTHER_INTENTS = ["sign-out-others", "sign-out-session", "set-password"] as const;

/** The settings page: change password, sign out the other sessions, or one of them; the phone number. */
export const settingsFormSchema = z.preprocess(
  (v) => {
    const intent = (v as { intent?: unknown })?.intent;
    return {
      ...(v as object),
      intent:
        OTHER_INTENTS.includes(intent as never) || PHONE_INTENTS.includes(intent as never) || PRIVACY_INTENTS.includes(intent as never)
          ? intent
          : "change-password",
    };
  },
  z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("change-password"), ...changePasswordFields }).superRefine(passwordsMatch),
    z.object({ intent: z.literal("set-password"), ...setPasswordFields }).superRefine(passwordsMatch),
    z.object({ intent: z.literal("sign-out-others") }),
    z.object({
      intent: z.literal("sign-out-session"),
      // The first 12 hex digits of the session's stored id, as the page shows it.
      session: z.string().regex(/^[0-9a-f]{12}$/, { message: "Unknown session." }),
    }),
    // The phone section (docs/decisions/0075): send a code, check it, remove the number.
    z.object({ intent: z.literal("phone-send"), phone: phoneNumber }),
    z.object({ intent: z.literal("phone-verify"), code: phoneCode }),
    z.object({ intent: z.literal("phone-remove") }),
    // Optional e-mail (news) on or off (docs/decisions/0212).
    z.object({ intent: z.literal("email-updates"), news: checkbox }),
    // Deleting the account (docs/decisions/0213): the password (none for a Google-only account, which
    // signs in again with Google instead) and an explicit confirmation.
    z.object({
      intent: z.literal("delete-account"),
      password: z.string().max(PASSWORD_MAX_LENGTH).optional().default(""),
      confirm: z.literal("yes", { error: "Tick the box to confirm that you want to delete your account." }),
    }),
  ]),
);

/** One-click unsubscribe (RFC 8058): the body a mail client posts, or the page's empty form. */
export const unsubscribeSchema = z.object({ "List-Unsubscribe": z.string().max(40).optional() });

export const profileSchema = z.object({ fullName });

/** The profile page: a new picture, or the name. */
export const profileFormSchema = z.preprocess(
  (v) => ({ ...(v as object), intent: (v as { intent?: unknown })?.intent === "avatar" ? "avatar" : "name" }),
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal("avatar"),
      avatar: z.custom<File>((v) => typeof File !== "undefined" && v instanceof File && v.size > 0, {
        message: "Choose an image to upload.",
      }),
    }),
    z.object({
      intent: z.literal("name"),
      fullName: z
        .unknown()
        .transform((v) => (typeof v === "string" ? v : ""))
        .pipe(fullName),
    }),
  ]),
);

/** The profile page's titles: a missing or refused picture is 'Upload failed'. */
export const profileFieldTitle = (field: string, message: string) => (field === "avatar" ? "Upload failed" : titleForField(field, message));

/** The settings page's titles: an unknown session is 'Action failed'. */
export const settingsFieldTitle = (field: string, message: string) => (field === "session" ? "Action failed" : titleForField(field, message));

export type { FieldErrors };

/** The first message per top-level field (browser-side checks; the server uses parseForm). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
