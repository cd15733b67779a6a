import { z } from "zod";
import { EMAIL_MAX, NAME_MAX, PASSWORD_MIN_LENGTH } from "~/lib/constants";
import { sanitizeText } from "~/lib/sanitize";

// One schema per form, used by the browser for instant feedback and by the action as the
// authority. Messages are product-spec.md section 5, word for word.

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

/** 'Single @ with dotted domain', at most 254 characters. */
export function isValidEmail(email: string): boolean {
  if (email.length > EMAIL_MAX) return false;
  const parts = email.split("@");
  if (parts.length !== 2) return false;
  const [local, domain] = parts;
  if (!local || /\s/.test(email)) return false;
  const labels = domain.split(".");
  return labels.length >= 2 && labels.every((l) => l.length > 0);
}

export function isUrlShaped(value: string): boolean {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

const checkbox = z
  .union([z.string(), z.boolean(), z.null()])
  .optional()
  .transform((v) => v === "on" || v === "true" || v === "1" || v === true);

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

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, { message: "Email is required." }).pipe(email),
  password: z.string().min(1, { message: "Password is required." }).max(PASSWORD_MAX_LENGTH),
});

export const signUpSchema = z
  .object({
    fullName: z
      .string()
      .transform((v) => sanitizeText(v).trim())
      .pipe(
        z
          .string()
          .min(1, { message: "Full name is required." })
          .max(NAME_MAX, { message: `Full name must be ${NAME_MAX} characters or less.` }),
      ),
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
    referralCode: z
      .string()
      .trim()
      .max(64)
      .transform((v) => v.replace(/[^A-Za-z0-9_-]/g, ""))
      .optional()
      .default(""),
    agencySlug: z
      .string()
      .trim()
      .max(64)
      .transform((v) => v.toLowerCase().replace(/[^a-z0-9-]/g, ""))
      .optional()
      .default(""),
    agencyName: z
      .string()
      .transform((v) => sanitizeText(v).trim().slice(0, NAME_MAX))
      .optional()
      .default(""),
    agencyToken: z.string().trim().max(128).optional().default(""),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.confirmPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: MESSAGES.passwordsMismatch });
    }
    if (!v.acceptTerms) ctx.addIssue({ code: "custom", path: ["acceptTerms"], message: MESSAGES.terms });
    if (v.wantsToBeClipper && !v.acceptClipperAgreement) {
      ctx.addIssue({ code: "custom", path: ["acceptClipperAgreement"], message: MESSAGES.clipper });
    }
  })
  // Unticking the clipper option clears its agreement.
  .transform((v) => ({ ...v, acceptClipperAgreement: v.wantsToBeClipper && v.acceptClipperAgreement }));

export type SignUpInput = z.infer<typeof signUpSchema>;

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({ token: z.string().min(10).max(200), password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: MESSAGES.passwordsMismatch });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, { message: "Current password is required." }).max(PASSWORD_MAX_LENGTH),
    password,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: MESSAGES.passwordsMismatch });

export const profileSchema = z.object({
  fullName: z
    .string()
    .transform((v) => sanitizeText(v).trim())
    .pipe(
      z
        .string()
        .min(1, { message: "Full name is required." })
        .max(NAME_MAX, { message: `Full name must be ${NAME_MAX} characters or less.` }),
    ),
});

/** The toast title that goes with a field's error, as the spec pairs them. */
export function titleForField(field: string, message = ""): string {
  if (message.endsWith("characters or less.")) return MESSAGES.tooLongTitle;
  switch (field) {
    case "password":
      return MESSAGES.passwordTitle;
    case "confirmPassword":
      return MESSAGES.passwordsMismatchTitle;
    case "email":
      return MESSAGES.invalidEmailTitle;
    case "acceptTerms":
      return MESSAGES.termsTitle;
    case "acceptClipperAgreement":
      return MESSAGES.clipperTitle;
    default:
      return "Please check the form";
  }
}

export type FieldErrors = Record<string, string>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
