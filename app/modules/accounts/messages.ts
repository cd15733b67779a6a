import { PASSWORD_MIN_LENGTH } from "~/lib/constants";

// The accounts rules and messages that the browser needs on a page's first load, without zod
// (docs/decisions/0086): the password checklist, the spec's messages, the toast title of a field.
// ./schema.ts builds the zod schemas from them and re-exports them.

export const PASSWORD_RULES: { id: string; label: string; test: (pw: string) => boolean }[] = [
  { id: "length", label: `At least ${PASSWORD_MIN_LENGTH} characters`, test: (pw) => pw.length >= PASSWORD_MIN_LENGTH },
  { id: "upper", label: "One uppercase letter", test: (pw) => /[A-Z]/.test(pw) },
  { id: "lower", label: "One lowercase letter", test: (pw) => /[a-z]/.test(pw) },
  { id: "digit", label: "One number", test: (pw) => /\d/.test(pw) },
  { id: "special", label: "One special character", test: (pw) => /[^A-Za-z0-9]/.test(pw) },
];

/** Long passphrases are welcome; the cap only stops absurd payloads from reaching the hasher. */
export const PASSWORD_MAX_LENGTH = 256;

export function firstUnmetPasswordRule(password: string): string | null {
  return PASSWORD_RULES.find((r) => !r.test(password))?.label ?? null;
}

export const MESSAGES = {
  passwordTitle: "Password requirements not met",
  passwordsMismatchTitle: "Passwords don't match",
  passwordsMismatch: "Please make sure your passwords match.",
  invalidEmailTitle: "Invalid email",
  invalidEmail: "Please enter a valid email address.",
  termsTitle: "Terms Required",
  terms: "Please accept the Creator Agreement & Monetization Terms to continue.",
  clipperTitle: "Clipper Agreement Required",
  clipper: "Please accept the Clipper Agreement to continue as a Clipper.",
  tooLongTitle: "Input too long",
} as const;

export const PHONE_MESSAGES = {
  invalid: "Please enter a phone number in international format, starting with + and the country code (e.g. +44 7700 900123).",
  code: "Enter the 6-digit code from the text message.",
} as const;

/** The toast title that goes with a field's error, as the spec pairs them. */
export function titleForField(field: string, message = ""): string {
  if (message === PHONE_MESSAGES.invalid) return "Invalid phone number";
  if (message.endsWith("characters or less.")) return MESSAGES.tooLongTitle;
  switch (field) {
    case "password":
      return MESSAGES.passwordTitle;
    case "confirmPassword":
      return MESSAGES.passwordsMismatchTitle;
    case "email":
    case "contactEmail":
      return MESSAGES.invalidEmailTitle;
    case "phone":
      return "Invalid phone number";
    case "code":
      return "Invalid code";
    case "acceptTerms":
      return MESSAGES.termsTitle;
    case "acceptClipperAgreement":
      return MESSAGES.clipperTitle;
    default:
      return "Please check the form";
  }
}

/**
 * The sign-in/sign-up screen's title for a refused field: the spec's own where it pairs one with the
 * field, else the form's failure title, 'Login failed' / 'Sign up failed' (spec section 8).
 */
export function authFieldTitle(form: "signin" | "signup", field: string, message = ""): string {
  const title = titleForField(field, message);
  if (title !== titleForField("")) return title;
  return form === "signup" ? "Sign up failed" : "Login failed";
}
