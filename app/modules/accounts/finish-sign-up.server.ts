import { and, eq } from "drizzle-orm";
import { profiles, users } from "~/db/schema";
import { conflict } from "~/lib/errors";
import { authorize } from "~/lib/permissions";
import { oneLine } from "~/lib/sanitize";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { actorOf } from "./directory.server";
import type { FinishSignUpInput } from "./schema";
import type { SessionUser } from "./session.server";

// Finishing a Google sign-up (docs/decisions/0324). "Continue with Google" makes the account at
// once (the provider proved the e-mail), but without the sign-up form's channel details and
// without the Creator Agreement. Until the person gives both on /auth/finish-sign-up the profile
// carries sign_up_details_missing: the guards send it there, the admin's queue does not list it
// and approval refuses it.

export const FINISH_SIGN_UP_PATH = "/auth/finish-sign-up";

/** What the finishing page shows: the name Google gave, to confirm or correct. */
export function finishSignUpDefaults(user: SessionUser): { email: string; fullName: string } {
  return { email: user.email, fullName: user.fullName ?? user.metadataFullName ?? "" };
}

function metadataOf(raw: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The details and the agreement, given once: a guarded update (WHERE sign_up_details_missing = 1)
 * decides, and the metadata and audit row follow only with it. A second submission (another tab)
 * changes nothing and says so. The account then waits in the admin's queue like any other.
 */
export async function finishSignUp(request: Request, user: SessionUser, input: FinishSignUpInput): Promise<void> {
  authorize(actorOf(user), "account", "update");
  const row = await db().select({ userMetadata: users.userMetadata }).from(users).where(eq(users.id, user.id)).get();
  const fullName = oneLine(input.fullName);
  // The sign-up metadata of spec section 3, as the password form sends it; what Google sign-up
  // wrote (provider, referral, the clipper choice) stays.
  const metadata = {
    ...metadataOf(row?.userMetadata ?? "{}"),
    full_name: fullName,
    youtube_channel_url: input.channelUrl,
    subscriber_count: input.subscribers,
    monthly_views: input.monthlyViews,
  };
  const now = new Date().toISOString();
  try {
    await db().batch([
      db()
        .update(profiles)
        .set({ signUpDetailsMissing: false, fullName, updatedAt: now })
        .where(and(eq(profiles.userId, user.id), eq(profiles.signUpDetailsMissing, true))),
      precondition(previousStatementChanged(1)),
      db()
        .update(users)
        .set({ userMetadata: JSON.stringify(metadata), updatedAt: now })
        .where(eq(users.id, user.id)),
      auditQuery({
        eventType: "sign_up_completed",
        severity: "low",
        userId: user.id,
        targetUserId: user.id,
        request,
        details: { method: "google", terms_accepted: true },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict("Your sign-up details have already been sent.");
    throw error;
  }
}
