import { eq, inArray } from "drizzle-orm";
import { channelSnapshots, manualChannelSubmissions, socialAccounts, socialHandles, youtubeChannels } from "~/db/schema";
import { db } from "~/platform/db.server";
import { channelColumns } from "./links.server";

// The channels domain's part of a data export and of an account deletion (issue 28, docs/privacy.md).

/** Linked channels (never their tokens), their snapshots, manual submissions, and declared TikTok / Instagram handles. */
export async function channelsDataFor(userId: string) {
  const [channels, submissions, handles, linkedAccounts] = await db().batch([
    db().select(channelColumns).from(youtubeChannels).where(eq(youtubeChannels.userId, userId)),
    db()
      .select({
        channelName: manualChannelSubmissions.channelName,
        channelUrl: manualChannelSubmissions.channelUrl,
        subscriberCount: manualChannelSubmissions.subscriberCount,
        avgMonthlyViews: manualChannelSubmissions.avgMonthlyViews,
        status: manualChannelSubmissions.status,
        verificationSubmittedAt: manualChannelSubmissions.verificationSubmittedAt,
        createdAt: manualChannelSubmissions.createdAt,
      })
      .from(manualChannelSubmissions)
      .where(eq(manualChannelSubmissions.userId, userId)),
    db()
      .select({ platform: socialHandles.platform, handle: socialHandles.handle, createdAt: socialHandles.createdAt, updatedAt: socialHandles.updatedAt })
      .from(socialHandles)
      .where(eq(socialHandles.userId, userId)),
    // Linked TikTok / Instagram accounts (decisions 0299, 0300): who, never the tokens.
    db()
      .select({
        platform: socialAccounts.platform,
        accountId: socialAccounts.externalUserId,
        username: socialAccounts.username,
        scope: socialAccounts.scope,
        createdAt: socialAccounts.createdAt,
        updatedAt: socialAccounts.updatedAt,
      })
      .from(socialAccounts)
      .where(eq(socialAccounts.userId, userId)),
  ]);
  const snapshots = channels.length
    ? await db()
        .select({
          channelRowId: channelSnapshots.channelRowId,
          day: channelSnapshots.day,
          subscriberCount: channelSnapshots.subscriberCount,
          viewCount: channelSnapshots.viewCount,
          videoCount: channelSnapshots.videoCount,
        })
        .from(channelSnapshots)
        .where(
          inArray(
            channelSnapshots.channelRowId,
            channels.map((c) => c.id),
          ),
        )
    : [];
  return {
    youtubeChannels: channels.map((c) => ({ ...c, snapshots: snapshots.filter((s) => s.channelRowId === c.id).map(({ channelRowId: _, ...s }) => s) })),
    manualSubmissions: submissions,
    socialHandles: handles,
    linkedSocialAccounts: linkedAccounts,
  };
}

/**
 * A deleted account's channels go: the links with their encrypted YouTube tokens and snapshots (cascade),
 * manual submissions, declared handles (freed for their owner) and linked TikTok / Instagram accounts
 * with their encrypted tokens.
 */
export function eraseChannelsDataQueries(userId: string) {
  return [
    db().delete(youtubeChannels).where(eq(youtubeChannels.userId, userId)),
    db().delete(manualChannelSubmissions).where(eq(manualChannelSubmissions.userId, userId)),
    db().delete(socialHandles).where(eq(socialHandles.userId, userId)),
    db().delete(socialAccounts).where(eq(socialAccounts.userId, userId)),
  ] as const;
}
