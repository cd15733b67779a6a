import { rateLimited } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import {
  accountExport,
  accountsDueForDeletion,
  actorOf,
  anonymiseAccount,
  pendingDeletionByEmail,
  purgeEndedSessions,
  type SessionUser,
} from "~/modules/accounts/accounts.server";
import { agenciesDataFor, eraseAgenciesDataQueries } from "~/modules/agencies/agencies.server";
import { campaignsDataFor } from "~/modules/campaigns/campaigns.server";
import { channelsDataFor, clearStaleChannelStatistics, eraseChannelsDataQueries } from "~/modules/channels/channels.server";
import { chatDataFor, eraseChatDataQueries } from "~/modules/chat/chat.server";
import { abortStaleUploads, clippingDataFor, eraseClippingData } from "~/modules/clipping/clipping.server";
import { eraseGrowthDataQueries, growthDataFor } from "~/modules/growth/growth.server";
import { eraseMusicData, musicDataFor } from "~/modules/music/music.server";
import { eraseNotificationsDataQueries, notificationsDataFor, purgeReadNotifications } from "~/modules/notifications/notifications.server";
import { paymentsDataFor } from "~/modules/payments/payments.server";
import { audit } from "~/platform/audit.server";
import { purgeOldAuditEntries, purgeOldCspReports } from "~/platform/audit-log.server";
import { db } from "~/platform/db.server";
import { purgeOldEmailBodies, purgeOldEmails } from "~/platform/email-retention.server";
import { deliveriesTo } from "~/platform/email-status.server";
import { isOptedOut } from "~/platform/email-preferences.server";
import { appName } from "~/platform/env.server";
import { consume, tooManyAttempts, type Limit } from "~/platform/rate-limit.server";

// The privacy policy's promises as code (issue 28, docs/privacy.md). This module sits on top of the
// domains: it asks each for its part of a person's data (export) and to erase it (deletion), and
// runs the retention job. Each domain touches only its own tables; the accounts domain, at the
// bottom, knows nothing of this module.

/** Exports per person: a few an hour (each reads every domain; nobody needs more). */
export const EXPORT_LIMIT: Limit = { maxAttempts: 3, windowMs: 60 * 60_000 };

export type DataExport = { filename: string; body: string };

/** Everything about one person, from every domain: never tokens or password hashes, nobody else's rows. */
async function collect(userId: string) {
  const account = await accountExport(userId);
  if (!account) return null;
  const email = account.profile.email;
  const [channels, music, campaigns, clipping, payments, chat, notifications, agencies, activity, emails, newsOff] = await Promise.all([
    channelsDataFor(userId),
    musicDataFor(userId),
    campaignsDataFor(userId),
    clippingDataFor(userId),
    paymentsDataFor(userId),
    chatDataFor(userId),
    notificationsDataFor(userId),
    agenciesDataFor(userId),
    growthDataFor(userId),
    deliveriesTo(email, 1000),
    isOptedOut(email, "news"),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    service: appName(),
    about:
      "Everything we hold about you. Files are listed with download links valid for a limited time. Passwords, session tokens and YouTube tokens are never included.",
    ...account,
    consents: {
      signUpTerms: account.profile.signUpDetails,
      emailUpdates: !newsOff,
      campaignTerms: campaigns.participation.map((p) => ({ campaign: p.campaign, acceptedAt: p.termsAcceptedAt })),
    },
    channels,
    music,
    campaigns,
    clipping,
    payments,
    chatMessages: chat,
    notifications,
    agencies,
    activity,
    emails: emails.map(({ id: _id, ...e }) => e),
    files: {
      avatar: account.profile.avatarUrl,
      sourceVideos: clipping.sourceVideos,
      submittedTracks: music.submittedTracks,
    },
  };
}

function asDownload(data: unknown, userId: string): DataExport {
  const day = new Date().toISOString().slice(0, 10);
  return { filename: `${appName().toLowerCase()}-data-${day}-${userId.slice(0, 8)}.json`, body: JSON.stringify(data, null, 2) };
}

async function limitExports(scope: string): Promise<void> {
  const state = await consume("data-export", scope, EXPORT_LIMIT);
  if (!state.allowed) {
    const { title, description } = tooManyAttempts(EXPORT_LIMIT);
    throw rateLimited(state.retryAfterSeconds, description, title);
  }
}

/** GET /settings/export: the signed-in person's own data, rate-limited and audit-logged. */
export async function exportMyData(request: Request, user: SessionUser): Promise<DataExport> {
  authorize(actorOf(user), "account", "export", { ownerId: user.id });
  await limitExports(`user:${user.id}`);
  const data = await collect(user.id);
  await audit({ eventType: "data_export", severity: "medium", userId: user.id, targetUserId: user.id, request });
  return asDownload(data, user.id);
}

/** An admin exports a person's data for them (they asked by e-mail). Audit-logged as a high-severity admin action. */
export async function exportDataFor(actor: Actor, userId: string, request: Request): Promise<DataExport | null> {
  authorize(actor, "user", "export");
  await limitExports(`admin:${actor.id}`);
  const data = await collect(userId);
  if (!data) return null;
  await audit({ eventType: "data_export_by_admin", severity: "high", userId: actor.id, targetUserId: userId, request });
  return asDownload(data, userId);
}

/**
 * Carries out one deletion whose grace period is over: each domain erases its part, then the
 * account is anonymised (last, so that a failure half-way leaves the account due and the next run
 * finishes it; every step is idempotent). Kept: ledger lines, payouts, agreement, campaign
 * submissions and clips (financial records, six years), chat messages (as "Deleted user"),
 * licences and published tracks.
 */
export async function carryOutDeletion(userId: string): Promise<boolean> {
  await db().batch([
    ...eraseChannelsDataQueries(userId),
    ...eraseNotificationsDataQueries(userId),
    ...eraseGrowthDataQueries(userId),
    ...eraseChatDataQueries(userId),
    ...eraseAgenciesDataQueries(userId),
  ]);
  await eraseClippingData(userId);
  await eraseMusicData(userId);
  return anonymiseAccount(userId);
}

/** The daily job: every account whose 30 days are over. Returns how many were carried out. */
export async function runDueDeletions(now = Date.now()): Promise<number> {
  let done = 0;
  for (const { id } of await accountsDueForDeletion(now)) {
    try {
      if (await carryOutDeletion(id)) done++;
    } catch (error) {
      console.error("account deletion failed; the next run tries again", id, error);
    }
  }
  return done;
}

/** /dev/factory intent=run-deletions-now: a pending deletion carried out at once (development builds only). */
export async function runDeletionNow(email: string): Promise<{ userId: string } | null> {
  const pending = await pendingDeletionByEmail(email);
  if (!pending) return null;
  await carryOutDeletion(pending.id);
  return { userId: pending.id };
}

export type RetentionReport = {
  auditEntries: number;
  cspReports: number;
  sessions: number;
  emailBodies: number;
  abandonedUploads: number;
  /** Sent and failed e-mails older than 90 days (decision 0337). */
  emails: number;
  /** Read bell entries older than 180 days (decision 0337). */
  readNotifications: number;
  /** Channels whose YouTube statistics went unrefreshed for 30 days, cleared (decision 0337). */
  staleChannels: number;
};

/**
 * The daily retention job (docs/privacy.md): what the policy says we keep only for a while, and the
 * moves of docs/scale.md that keep D1 under its 10 GB (decision 0337).
 */
export async function runRetention(now = Date.now()): Promise<RetentionReport> {
  const cspReports = await purgeOldCspReports(now);
  const auditEntries = await purgeOldAuditEntries(now);
  const sessions = await purgeEndedSessions(now);
  const emailBodies = await purgeOldEmailBodies(now);
  const abandonedUploads = await abortStaleUploads(now);
  const emails = await purgeOldEmails(now);
  const readNotifications = await purgeReadNotifications(now);
  const staleChannels = await clearStaleChannelStatistics(now);
  return { auditEntries, cspReports, sessions, emailBodies, abandonedUploads, emails, readNotifications, staleChannels };
}

/** The daily run's privacy work: deletions due, then retention. */
export async function runPrivacyJobs(now = Date.now()): Promise<void> {
  await runDueDeletions(now).catch((error) => console.error("deletion job failed", error));
  await runRetention(now).catch((error) => console.error("retention job failed", error));
}
