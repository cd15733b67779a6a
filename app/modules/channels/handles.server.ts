import { and, eq, ne } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { SOCIAL_PLATFORMS, socialHandles } from "~/db/schema";
import { conflict } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isUniqueViolation } from "~/platform/precondition.server";
import { HANDLE_MESSAGES, SOCIAL_LABELS, type SocialPlatform } from "./messages";

// The creator's declared TikTok and Instagram handles (decision 0265). Campaigns check a submitted
// TikTok / Instagram video against them (the platform's oEmbed names its author). A handle belongs
// to one account: the unique index decides between two people declaring it at once.

export type SocialHandles = Record<SocialPlatform, string | null>;

/** The handles a person declared (lower case, without the @), null where none. */
export async function socialHandlesOf(userId: string): Promise<SocialHandles> {
  const rows = await db().select().from(socialHandles).where(eq(socialHandles.userId, userId));
  const out: SocialHandles = { tiktok: null, instagram: null };
  for (const r of rows) out[r.platform] = r.handle;
  return out;
}

const isHandleClash = (error: unknown) => isUniqueViolation(error, "social_handles.platform, social_handles.handle");

/**
 * Declares (or changes, or clears with null) the person's handles, audited with the old and new
 * values. A handle another account declared is refused, naming the platform; nothing is written.
 */
export async function declareSocialHandles(actor: Actor, request: Request, input: SocialHandles): Promise<void> {
  authorize(actor, "channel", "declareHandles");
  const before = await socialHandlesOf(actor.id);
  const t = new Date().toISOString();
  const changed = SOCIAL_PLATFORMS.filter((p) => before[p] !== input[p]);
  if (changed.length === 0) return;
  for (const p of changed) {
    const handle = input[p];
    if (!handle) continue;
    const taken = await db()
      .select({ userId: socialHandles.userId })
      .from(socialHandles)
      .where(and(eq(socialHandles.platform, p), eq(socialHandles.handle, handle), ne(socialHandles.userId, actor.id)))
      .get();
    if (taken) throw conflict(HANDLE_MESSAGES.taken(SOCIAL_LABELS[p]), { fieldErrors: { [p]: HANDLE_MESSAGES.taken(SOCIAL_LABELS[p]) } });
  }
  const writes: BatchItem<"sqlite">[] = changed.map((p) => {
    const handle = input[p];
    return handle
      ? db()
          .insert(socialHandles)
          .values({ userId: actor.id, platform: p, handle, createdAt: t, updatedAt: t })
          .onConflictDoUpdate({ target: [socialHandles.userId, socialHandles.platform], set: { handle, updatedAt: t } })
      : db()
          .delete(socialHandles)
          .where(and(eq(socialHandles.userId, actor.id), eq(socialHandles.platform, p)));
  });
  writes.push(
    auditQuery({
      eventType: "social_handles_declared",
      userId: actor.id,
      request,
      details: Object.fromEntries(changed.map((p) => [p, { before: before[p], after: input[p] }])),
    }),
  );
  try {
    await db().batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (!isHandleClash(error)) throw error;
    const p = changed.find((x) => input[x]) ?? "tiktok";
    throw conflict(HANDLE_MESSAGES.taken(SOCIAL_LABELS[p]), { fieldErrors: { [p]: HANDLE_MESSAGES.taken(SOCIAL_LABELS[p]) } });
  }
}
