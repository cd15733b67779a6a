import { eq } from "drizzle-orm";
import { clipperInvitations } from "~/db/schema";
import { sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { appLink } from "~/platform/email.server";
import { CLIPPING_MESSAGES as M } from "./messages";

// What a clipper invitation's code is (docs/decisions/0205): its lifetime and limits, its link,
// reading one from what was typed or pasted, its stored hash, finding the invitation by it, and why
// it cannot be used now. Shared by the creator's side (invitations.server.ts), the invited person's
// (invitation-accept.server.ts) and the kept link (invite-cookie.server.ts).

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Invitations a creator may create per hour (an exact counter: they can send e-mail). */
export const INVITATION_LIMIT = { maxAttempts: 20, windowMs: 60 * 60 * 1000 };
/** Invitation e-mails one address may receive per hour, from every creator together. */
export const INVITATION_EMAIL_LIMIT = { maxAttempts: 1, windowMs: 60 * 60 * 1000 };

/** The invitation link (spec: /auth?ref=CODE&clipper=1), on the configured public origin. */
export const invitationLink = (code: string) => appLink(`/auth?ref=${encodeURIComponent(code)}&clipper=1`);

const CODE = /^[a-z0-9]{20,64}$/;

/** An invitation code as typed or pasted: the code, or a whole invitation link. Null if neither. */
export function invitationCodeOf(raw: string): string | null {
  let text = raw.trim();
  if (/[?&]ref=/.test(text)) {
    try {
      text = new URL(text, "https://x.invalid").searchParams.get("ref") ?? "";
    } catch {
      return null;
    }
  }
  const code = text.toLowerCase();
  return CODE.test(code) ? code : null;
}

export const normalizedEmail = (email: string) => email.trim().toLowerCase();
export const hashOf = (code: string) => sha256Hex(code);

export type InvitationLookup = typeof clipperInvitations.$inferSelect;

export async function invitationByCode(code: string | null): Promise<InvitationLookup | null> {
  if (!code) return null;
  return (
    (await db()
      .select()
      .from(clipperInvitations)
      .where(eq(clipperInvitations.codeHash, hashOf(code)))
      .get()) ?? null
  );
}

/** Why an invitation cannot be used now (null when it can), for a person with this id and e-mail. */
export function refusalOf(row: InvitationLookup | null, person: { id: string | null; email: string | null }): string | null {
  if (!row) return M.invitationInvalid;
  if (row.status === "withdrawn") return M.invitationWithdrawn;
  if (row.status !== "open") return row.acceptedBy && row.acceptedBy === person.id ? M.requestWaiting : M.invitationUsed;
  if (Date.parse(row.expiresAt) <= Date.now()) return M.invitationExpired;
  if (person.id && row.creatorUserId === person.id) return M.invitationOwn;
  if (row.email && person.email && normalizedEmail(person.email) !== row.email) return M.invitationWrongEmail;
  return null;
}
