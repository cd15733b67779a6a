import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { clipperLinks, clipSplitRequests, profiles, users } from "~/db/schema";
import { notFound } from "~/lib/errors";
import { endAllSessions } from "~/modules/accounts/accounts.server";
import { notifyAccountDecision } from "~/modules/notifications/notifications.server";
import { runDeletionNow } from "~/modules/privacy/privacy.server";
import { db } from "~/platform/db.server";
import { registerStandInVideo } from "./dev-oauth.server";

// The test factory behind POST /dev/factory (development builds only, DEV_TOOLS=1): approve,
// reject or ban a user, mark their e-mail verified, backdate a clipper's split decisions (by e-mail address), or register a
// video with the YouTube stand-in, without the admin
// console. Like the seed (seed.server.ts) it is a fixture and writes the accounts tables directly;
// the notification (and live account event) is the same one an admin's decision sends.

export const FACTORY_INTENTS = ["approve", "reject", "ban", "verify-email", "run-deletions-now", "backdate-clip-splits", "register-video"] as const;

export const factorySchema = z.object({
  intent: z.enum(FACTORY_INTENTS, { error: "unknown intent" }),
  email: z.string().trim().toLowerCase(),
  reason: z.string().optional(),
  // register-video: a YouTube video the stand-in then knows (on the e-mail's user's first channel, or a stand-in channel), with its views.
  videoId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{6,20}$/)
    .optional(),
  views: z.coerce.number().int().min(0).optional(),
});

export type FactoryInput = z.output<typeof factorySchema>;

export async function runFactory(input: FactoryInput): Promise<{ userId: string }> {
  // A pending account deletion carried out at once, without waiting out the 30 days (issue 28): by
  // the same code the daily job runs. Looked up before the e-mail is replaced.
  if (input.intent === "run-deletions-now") {
    const done = await runDeletionNow(input.email);
    if (!done) throw notFound("no pending deletion for this e-mail");
    return done;
  }
  // A video the YouTube stand-in knows from now on (a clip or campaign journey's own video id).
  if (input.intent === "register-video") {
    if (!input.videoId) throw notFound("videoId is required");
    await registerStandInVideo(input.videoId, "UCstandinFactoryVideos01", input.views);
    return { userId: "" };
  }
  const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
  if (!user) throw notFound("no such user");
  const now = new Date().toISOString();
  switch (input.intent) {
    case "approve":
      await db().update(profiles).set({ approvalStatus: "approved", updatedAt: now }).where(eq(profiles.userId, user.id));
      await notifyAccountDecision(user.id, "approved", null);
      break;
    case "reject":
      await db()
        .update(profiles)
        .set({ approvalStatus: "rejected", rejectionReason: input.reason ?? "Not eligible" })
        .where(eq(profiles.userId, user.id));
      await notifyAccountDecision(user.id, "rejected", null);
      break;
    case "ban":
      await db()
        .update(profiles)
        .set({ isBanned: true, banReason: input.reason ?? "Test ban" })
        .where(eq(profiles.userId, user.id));
      await notifyAccountDecision(user.id, "banned", null);
      await endAllSessions(user.id);
      break;
    case "verify-email":
      await db().update(users).set({ emailVerifiedAt: now }).where(eq(users.id, user.id));
      break;
    // The clipper's decided split requests as if decided long ago, so a journey can import a past
    // month (the current and future months are refused) at the split it just approved.
    case "backdate-clip-splits":
      await db()
        .update(clipSplitRequests)
        .set({ decidedAt: "2020-01-01T00:00:00.000Z" })
        .where(inArray(clipSplitRequests.linkId, db().select({ id: clipperLinks.id }).from(clipperLinks).where(eq(clipperLinks.clipperUserId, user.id))));
      break;
  }
  return { userId: user.id };
}
