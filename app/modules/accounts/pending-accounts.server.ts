import type { BatchItem } from "drizzle-orm/batch";
import { profiles, users } from "~/db/schema";
import { oneLine } from "~/lib/sanitize";
import { auditQuery } from "~/platform/audit.server";
import { shortCode } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { appLink, emailQuery } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { LIMITS, consume, ipScope, logRateLimitHit } from "~/platform/rate-limit.server";
import { hashPassword } from "./password.server";

import { limited, oneTimeToken, userIdByEmail, VERIFY_TTL_MS, verificationEmail } from "./account-tokens.server";

// A pending account, the one way every sign-up screen (creator, agency application, music partner)
// creates one; auth.server.ts holds the sign-up, sign-in and token rules around it.

// ---------------------------------------------------------------------------------------------
// Pending accounts: every sign-up screen (creator, agency application, music partner)
// ---------------------------------------------------------------------------------------------

export type PendingAccountInput = {
  email: string;
  password: string;
  fullName: string;
  /** Kept as users.user_metadata (the sign-up metadata of spec section 3 plus extras). */
  metadata: Record<string, unknown>;
  isMusicPartner?: boolean;
  artistName?: string | null;
  catalogueUrl?: string | null;
  agencyId?: string | null;
  referredBy?: string | null;
  agencySignupTokenId?: string | null;
  /**
   * drizzle queries (not executed) written in the same batch as the account, given its id: the
   * agency application, the clipper link. Their owners' modules build them.
   */
  extraQueries?: (userId: string) => BatchItem<"sqlite">[];
  auditDetails?: Record<string, unknown>;
  /** The page the confirmation link leads back to (verificationEmail). */
  returnTo?: string;
};

function isDuplicateEmail(error: unknown): boolean {
  return /UNIQUE.*users\.email/.test(`${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`);
}

/** The e-mail the owner of an address gets when someone signs up with it again, and its audit row. */
function existingAccountNotice(request: Request, email: string, ownerId: string) {
  return [
    emailQuery({
      to: email,
      kind: "signup_existing",
      subject: `Someone tried to sign up to ${appName()} with your e-mail`,
      text: `Someone (maybe you) tried to create a ${appName()} account with this e-mail address, which already has one.\n\nIf it was you, sign in at ${appLink("/auth")} and continue from there, or reset your password at ${appLink("/auth/forgot-password")}.\n\nIf it was not you, you can ignore this message: nothing was changed.`,
    }),
    auditQuery({ eventType: "sign_up_existing_email", severity: "low", request, targetUserId: ownerId }),
  ] as const;
}

/**
 * A pending account made under the same rules as signUp: the sign-up limit per address (429), the
 * same answer in the same time whether or not the e-mail already has an account (the password is
 * hashed either way; the owner is told by e-mail and nothing else is written), and the
 * verification e-mail. Returns the new user's id, or null when the e-mail already had an account.
 * Errors other than a duplicate e-mail are thrown as they come (the batch wrote nothing), so
 * callers can recognise their own (e.g. a taken slug).
 */
export async function createPendingAccount(request: Request, input: PendingAccountInput): Promise<{ userId: string | null }> {
  const ipLimit = await consume("signup", ipScope(request), LIMITS.signup);
  if (!ipLimit.allowed) {
    await logRateLimitHit(request, "signup");
    throw limited(LIMITS.signup, ipLimit.retryAfterSeconds);
  }

  // Hashed before the e-mail is looked up, on both paths: skipping the hash for a known e-mail
  // made that answer 3x faster, which told anyone whether the address has an account.
  const [passwordHash, existing] = await Promise.all([hashPassword(input.password), userIdByEmail(input.email)]);
  if (existing) {
    await db().batch([...existingAccountNotice(request, input.email, existing.id)]);
    return { userId: null };
  }

  const userId = crypto.randomUUID();
  const { token, query: tokenQuery } = oneTimeToken(userId, "email_verification", VERIFY_TTL_MS);
  try {
    await db().batch([
      db()
        .insert(users)
        .values({
          id: userId,
          email: input.email,
          passwordHash,
          userMetadata: JSON.stringify({ full_name: oneLine(input.fullName), ...input.metadata }),
        }),
      db()
        .insert(profiles)
        .values({
          userId,
          creatorId: shortCode(),
          // The schemas made it one line already; a name is never stored otherwise (docs/decisions/0287).
          fullName: oneLine(input.fullName),
          approvalStatus: "pending",
          isMusicPartner: Boolean(input.isMusicPartner),
          artistName: input.artistName == null ? null : oneLine(input.artistName),
          catalogueUrl: input.catalogueUrl ?? null,
          agencyId: input.agencyId ?? null,
          referredBy: input.referredBy ?? null,
          agencySignupTokenId: input.agencySignupTokenId ?? null,
        }),
      tokenQuery,
      verificationEmail(input.email, token, input.returnTo),
      auditQuery({
        eventType: "sign_up",
        severity: "low",
        userId,
        targetUserId: userId,
        request,
        details: { agency_id: input.agencyId ?? null, music_partner: Boolean(input.isMusicPartner), ...input.auditDetails },
      }),
      ...(input.extraQueries?.(userId) ?? []),
    ]);
  } catch (error) {
    // A race on the same e-mail: nothing was written (one batch); same answer as above.
    if (!isDuplicateEmail(error)) throw error;
    const owner = await userIdByEmail(input.email);
    if (owner) await db().batch([...existingAccountNotice(request, input.email, owner.id)]);
    return { userId: null };
  }
  return { userId };
}
