import { z } from "zod";
import { NAME_MAX } from "~/lib/constants";
import { MESSAGES, PASSWORD_MAX_LENGTH, firstUnmetPasswordRule, isUrlShaped, isValidEmail } from "~/modules/accounts/schema";
import { sanitizeLine, sanitizeText } from "~/lib/sanitize";
import { DomainError } from "~/lib/errors";
import {
  AGENCY_MESSAGES,
  DESCRIPTION_MAX,
  slugProblem,
  AGENCY_TERMS_MESSAGE,
  INVITATION_MESSAGES,
  LOGO_MESSAGE,
  MUSIC_TERMS_MESSAGE,
  agencyFieldTitle,
} from "./messages";

// The constants, labels and messages without zod live in ./messages: that is what pages import
// on their first load (docs/decisions/0086). Re-exported here for the server and other modules.
export {
  AGENCY_MESSAGES,
  AGENCY_TERMS_MESSAGE,
  DESCRIPTION_MAX,
  INVITATION_MESSAGES,
  LOGO_MAX_BYTES,
  LOGO_MESSAGE,
  MANAGER_INVITED,
  MUSIC_TERMS_MESSAGE,
  RESERVED_SLUGS,
  SLUG_MAX,
  SLUG_MIN,
  agencyFieldTitle,
  slugProblem,
  slugify,
} from "./messages";

// Forms of the agency area: applications (with an account when signed out), the agency
// profile, managers, and the music partner sign-up. Same schemas in the browser and the action.

/** A name (agency, person, artist or label): one line of plain text (docs/decisions/0287). */
const text = (label: string, min: number, max: number) =>
  z
    .string({ message: `${label} is required.` })
    .transform((v) => sanitizeLine(v))
    .pipe(
      z
        .string()
        .min(min, { message: min <= 1 ? `${label} is required.` : `${label} must be at least ${min} characters.` })
        .max(max, { message: `${label} must be ${max} characters or less.` }),
    );

const email = z
  .string({ message: MESSAGES.invalidEmail })
  .trim()
  .toLowerCase()
  .refine((v) => v.length <= 254, { message: "Email must be 254 characters or less." })
  .refine(isValidEmail, { message: MESSAGES.invalidEmail });

const password = z
  .string({ message: "Password is required." })
  .max(PASSWORD_MAX_LENGTH, { message: `Password must be ${PASSWORD_MAX_LENGTH} characters or less.` })
  .superRefine((pw, ctx) => {
    const unmet = firstUnmetPasswordRule(pw);
    if (unmet) ctx.addIssue({ code: "custom", message: unmet });
  });

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("1"), z.literal(""), z.undefined(), z.null()])
  .transform((v) => v === "on" || v === "true" || v === "1");

export const slugSchema = z
  .string({ message: "Slug is required." })
  .trim()
  .toLowerCase()
  .superRefine((v, ctx) => {
    const problem = slugProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const description = z
  .string()
  .optional()
  .default("")
  .transform((v) => sanitizeText(v).trim())
  .pipe(z.string().max(DESCRIPTION_MAX, { message: `Description must be ${DESCRIPTION_MAX} characters or less.` }));

export const agencyApplicationSchema = z.object({
  agencyName: text("Agency name", 2, NAME_MAX),
  slug: slugSchema,
  contactEmail: email,
  description,
});
export type AgencyApplicationInput = z.infer<typeof agencyApplicationSchema>;

/** The new account's fields of the signed-out sign-up forms (agency applicant, music partner). */
const newAccountFields = {
  fullName: text("Full name", 1, NAME_MAX),
  email,
  password,
  confirmPassword: z.string().optional().default(""),
};

/** A sign-up's cross-field checks: the password confirmed, the form's terms (`termsMessage`) accepted. */
const confirmedAndAccepted = (termsMessage: string) => (v: { password: string; confirmPassword: string; acceptTerms: boolean }, ctx: z.RefinementCtx) => {
  if (v.password !== v.confirmPassword) {
    ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: MESSAGES.passwordsMismatch });
  }
  if (!v.acceptTerms) ctx.addIssue({ code: "custom", path: ["acceptTerms"], message: termsMessage });
};

/** The account part of the application, when the applicant is signed out. */
export const applicantAccountSchema = z
  .object({
    ...newAccountFields,
    acceptTerms: checkbox,
  })
  .superRefine(confirmedAndAccepted(AGENCY_TERMS_MESSAGE));
export type ApplicantAccountInput = z.infer<typeof applicantAccountSchema>;

export const agencyProfileSchema = z.object({
  name: text("Agency name", 2, NAME_MAX),
  contactEmail: email,
  description,
});

export const addManagerSchema = z.object({ email });

/** The invitation page's form: accept, with the token of the link. */
export const acceptInvitationSchema = z.object({
  token: z
    .string({ message: INVITATION_MESSAGES.invalid })
    .trim()
    .min(1, { message: INVITATION_MESSAGES.invalid })
    .max(200, { message: INVITATION_MESSAGES.invalid }),
});

/** The agency an action on the dashboard names; whether the user may act on it is the module's check. */
const agencyRef = z.string().max(100).optional().default("");
const rowId = (message: string) => z.string({ message }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message });

/** Every form of the agency dashboard, by its intent. */
export const dashboardActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("update_profile"), agencyId: agencyRef, ...agencyProfileSchema.shape }),
    z.object({
      intent: z.literal("upload_logo"),
      agencyId: agencyRef,
      logo: z.custom<File>((v) => typeof File !== "undefined" && v instanceof File && v.size > 0, { message: LOGO_MESSAGE }),
    }),
    z.object({ intent: z.literal("create_token"), agencyId: agencyRef }),
    z.object({ intent: z.literal("revoke_token"), agencyId: agencyRef, id: rowId("Unknown token.") }),
    z.object({ intent: z.literal("add_manager"), agencyId: agencyRef, ...addManagerSchema.shape }),
    z.object({ intent: z.literal("remove_manager"), agencyId: agencyRef, id: rowId("Unknown manager.") }),
  ],
  { message: "Unknown action." },
);
export type DashboardAction = z.output<typeof dashboardActionSchema>;
export type DashboardIntent = DashboardAction["intent"];

/** The spec's toast title of each dashboard form when it fails. */
export const DASHBOARD_TITLES: Record<DashboardIntent, string> = {
  update_profile: AGENCY_MESSAGES.update,
  upload_logo: AGENCY_MESSAGES.update,
  create_token: AGENCY_MESSAGES.token,
  revoke_token: AGENCY_MESSAGES.update,
  add_manager: AGENCY_MESSAGES.addUser,
  remove_manager: AGENCY_MESSAGES.update,
};

/** A signed-out applicant fills in the account and the agency in one form. */
export const applicationWithAccountSchema = z.intersection(applicantAccountSchema, agencyApplicationSchema);

export const musicPartnerSignUpSchema = z
  .object({
    ...newAccountFields,
    artistName: text("Artist or label name", 1, NAME_MAX),
    catalogueUrl: z
      .string({ message: "Catalogue link is required." })
      .trim()
      .min(1, { message: "Catalogue link is required." })
      .max(500, { message: "Catalogue link must be 500 characters or less." })
      .refine(isUrlShaped, { message: "Please enter a valid link (for example https://open.spotify.com/artist/…)." }),
    acceptTerms: checkbox,
  })
  .superRefine(confirmedAndAccepted(MUSIC_TERMS_MESSAGE));
export type MusicPartnerSignUpInput = z.infer<typeof musicPartnerSignUpSchema>;

/**
 * Gives a refused form's toast the spec's title for its first field, as the screens always have
 * (parseForm's field errors carry no title): `parseForm(request, schema).catch(withFieldTitle)`.
 */
export function withFieldTitle(error: unknown): never {
  if (error instanceof DomainError && error.code === "invalid_input" && !error.title) {
    const [field, message] = Object.entries(error.fieldErrors)[0] ?? ["form", error.message];
    throw new DomainError(error.code, error.message, {
      title: agencyFieldTitle(field, message),
      fieldErrors: error.fieldErrors,
      details: error.details,
    });
  }
  throw error;
}
