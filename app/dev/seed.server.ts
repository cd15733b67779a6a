// Demo data: one account of every kind, an agency, a linked channel, a verified manual
// submission, a clipper link, and the music catalogue (app/dev/music-seed.ts) with real audio synthesized on the spot.
// Idempotent: fixed ids and INSERT OR IGNORE, so running it twice adds nothing.
// It takes plain bindings and a hasher so the Node seed script (through wrangler's platform
// proxy) and the worker tests (inside workerd) run the very same code.
import { iso, musicSeed } from "./music-seed.ts";
import { paymentsSeed } from "./payments-seed.ts";
import { campaignsSeed } from "./campaigns-seed.ts";
import { chatSeed } from "./chat-seed.ts";
import { growthSeed } from "./growth-seed.ts";
import { clippingSeed } from "./clipping-seed.ts";
import { thumbnailsSeed } from "./thumbnails-seed.ts";
import { notificationsSeed } from "./notifications-seed.ts";
import { demoChannelSnapshots } from "./demo-channel.ts";
import { signUpMetadata } from "../modules/accounts/sign-up-metadata.ts";

export const DEMO_PASSWORD = "Shortbeat#2026";

export type DemoKind = "admin" | "creator" | "pending" | "rejected" | "banned" | "partner" | "agency" | "clipper";

type DemoAccount = {
  kind: DemoKind;
  id: string;
  email: string;
  fullName: string;
  creatorId: string;
  approvalStatus: "pending" | "approved" | "rejected";
  isBanned?: boolean;
  banReason?: string;
  rejectionReason?: string;
  isMusicPartner?: boolean;
  artistName?: string;
  admin?: boolean;
  metadata?: Record<string, unknown>;
};

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

export const DEMO_AGENCY = {
  id: uuid(900),
  name: "Northwind Talent",
  slug: "northwind",
  contactEmail: "hello@northwind.test",
  description: "A creator-first agency for Shorts talent.",
};

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    kind: "admin",
    id: uuid(1),
    email: "admin@shortbeat.test",
    fullName: "Ada Admin",
    creatorId: "ADMIN001",
    approvalStatus: "approved",
    admin: true,
  },
  {
    kind: "creator",
    id: uuid(2),
    email: "creator@shortbeat.test",
    fullName: "Casey Creator",
    creatorId: "CASEY123",
    approvalStatus: "approved",
    metadata: {
      youtube_channel_url: "https://www.youtube.com/@caseycreates",
      subscriber_count: 48200,
      monthly_views: 1250000,
    },
  },
  {
    kind: "pending",
    id: uuid(3),
    email: "pending@shortbeat.test",
    fullName: "Parker Pending",
    creatorId: "PARKER42",
    approvalStatus: "pending",
    metadata: { youtube_channel_url: "https://www.youtube.com/@parkerplays", subscriber_count: 1200, monthly_views: 30000 },
  },
  {
    kind: "rejected",
    id: uuid(4),
    email: "rejected@shortbeat.test",
    fullName: "Riley Rejected",
    creatorId: "RILEY777",
    approvalStatus: "rejected",
    rejectionReason: "Channel does not meet the monetization requirements yet.",
  },
  {
    kind: "banned",
    id: uuid(5),
    email: "banned@shortbeat.test",
    fullName: "Blake Banned",
    creatorId: "BLAKE666",
    approvalStatus: "approved",
    isBanned: true,
    banReason: "Repeated use of unlicensed music.",
  },
  {
    kind: "partner",
    id: uuid(6),
    email: "partner@shortbeat.test",
    fullName: "Morgan Music",
    creatorId: "MORGAN88",
    approvalStatus: "approved",
    isMusicPartner: true,
    artistName: "Morgan & The Loops",
  },
  {
    kind: "agency",
    id: uuid(7),
    email: "agency@shortbeat.test",
    fullName: "Avery Agency",
    creatorId: "AVERY555",
    approvalStatus: "approved",
  },
  {
    kind: "clipper",
    id: uuid(8),
    email: "clipper@shortbeat.test",
    fullName: "Charlie Clipper",
    creatorId: "CHARLIE9",
    approvalStatus: "approved",
    metadata: { referral_code: "CASEY123", wants_to_be_clipper: true, clipper_agreement_accepted: true },
  },
];

function demoAccount(kind: DemoKind): DemoAccount {
  const account = DEMO_ACCOUNTS.find((a) => a.kind === kind);
  if (!account) throw new Error(`No demo account of kind ${kind}`);
  return account;
}

export type SeedBindings = {
  db: D1Database;
  media: R2Bucket;
  hashPassword: (password: string) => Promise<string>;
  /** The demo tracks' listening previews (app/dev/music-seed.ts); none without it. */
  encodeMp3?: (samples: Float32Array, sampleRate: number) => Promise<Uint8Array>;
};

export type SeedResult = { usersCreated: number; tracksUploaded: number };

export async function seedDemoData({ db, media, hashPassword, encodeMp3 }: SeedBindings): Promise<SeedResult> {
  const existing = await db
    .prepare(`SELECT id FROM users WHERE id IN (${DEMO_ACCOUNTS.map(() => "?").join(",")})`)
    .bind(...DEMO_ACCOUNTS.map((a) => a.id))
    .all<{ id: string }>();
  const present = new Set(existing.results.map((r) => r.id));
  const missing = DEMO_ACCOUNTS.filter((a) => !present.has(a.id));

  // Hashing is the slow part; only new accounts need it. One hash serves them all, since
  // the demo accounts share a password (a random salt per hash would not add anything here).
  const hash = missing.length ? await hashPassword(DEMO_PASSWORD) : "";
  // Dates count back from the day it runs (music-seed's iso()). The creator has been with the agency and
  // its channel since ~125 days ago: before the oldest month of the payments seed's earnings (three back).
  const verifiedAt = iso(129, 9);
  const statements: D1PreparedStatement[] = [];

  for (const a of DEMO_ACCOUNTS) {
    const metadata = signUpMetadata({ full_name: a.fullName, ...a.metadata });
    if (!present.has(a.id)) {
      statements.push(
        db
          .prepare(`INSERT OR IGNORE INTO users (id, email, email_verified_at, password_hash, user_metadata) VALUES (?, ?, ?, ?, ?)`)
          .bind(a.id, a.email, verifiedAt, hash, JSON.stringify(metadata)),
      );
    }
    statements.push(
      db
        .prepare(
          // last_sign_in_at: the demo accounts stand for people who have used the app before, so
          // their sign-in says 'Welcome back!' (a first sign-in says 'Welcome to …!').
          `INSERT OR IGNORE INTO profiles (user_id, creator_id, full_name, approval_status, rejection_reason, is_banned, ban_reason, is_music_partner, artist_name, last_sign_in_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          a.id,
          a.creatorId,
          a.fullName,
          a.approvalStatus,
          a.rejectionReason ?? null,
          a.isBanned ? 1 : 0,
          a.banReason ?? null,
          a.isMusicPartner ? 1 : 0,
          a.artistName ?? null,
          verifiedAt,
        ),
    );
    if (a.admin) {
      statements.push(
        db.prepare(`INSERT OR IGNORE INTO user_roles (id, user_id, role) VALUES (?, ?, 'admin')`).bind(uuid(500 + DEMO_ACCOUNTS.indexOf(a)), a.id),
      );
    }
  }

  const creator = demoAccount("creator");
  const manager = demoAccount("agency");
  const clipper = demoAccount("clipper");
  const admin = demoAccount("admin");
  const partner = demoAccount("partner");

  statements.push(
    db
      .prepare(
        `INSERT OR IGNORE INTO agencies (id, name, slug, contact_email, description, status, approval_status, created_by, user_id)
         VALUES (?, ?, ?, ?, ?, 'active', 'approved', ?, ?)`,
      )
      .bind(DEMO_AGENCY.id, DEMO_AGENCY.name, DEMO_AGENCY.slug, DEMO_AGENCY.contactEmail, DEMO_AGENCY.description, manager.id, manager.id),
    db
      .prepare(`INSERT OR IGNORE INTO agency_users (id, agency_id, user_id, role, created_by) VALUES (?, ?, ?, 'manager', ?)`)
      .bind(uuid(901), DEMO_AGENCY.id, manager.id, manager.id),
    // The creator joined through the agency and started their term with the channel link.
    db
      .prepare(`UPDATE profiles SET agency_id = ?, term_started_at = COALESCE(term_started_at, ?) WHERE user_id = ?`)
      .bind(DEMO_AGENCY.id, iso(124), creator.id),
    db.prepare(`UPDATE profiles SET referred_by = ? WHERE user_id = ? AND referred_by IS NULL`).bind(creator.id, clipper.id),
    db
      .prepare(
        `INSERT OR IGNORE INTO youtube_channels (id, user_id, channel_id, channel_title, channel_handle, subscriber_count, view_count, video_count, description, last_synced_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        uuid(201),
        creator.id,
        "UCdemoCaseyCreates0001",
        "Casey Creates",
        "@caseycreates",
        48200,
        9120000,
        312,
        "Daily Shorts about cooking fails and wins.",
        iso(0, 6),
        iso(124),
      ),
    db
      .prepare(
        `INSERT OR IGNORE INTO manual_channel_submissions (id, user_id, creator_id, channel_name, channel_url, subscriber_count, avg_monthly_views, status, verification_submitted_at, reviewed_by, reviewed_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'verified', ?, ?, ?, ?)`,
      )
      .bind(
        uuid(301),
        creator.id,
        creator.creatorId,
        "Casey Creates Clips",
        "https://www.youtube.com/@caseycreatesclips",
        5400,
        210000,
        iso(52, 12),
        admin.id,
        iso(51, 9),
        iso(52, 11),
      ),
    // The demo clipper is an approved clipper of the demo creator (through the invitation
    // app/dev/clipping-seed.ts records, approved 60 days ago).
    db
      .prepare(
        `INSERT OR IGNORE INTO clipper_links (id, creator_user_id, clipper_user_id, clipper_share_bps, created_at, approved_at) VALUES (?, ?, ?, 7000, ?, ?)`,
      )
      .bind(uuid(401), creator.id, clipper.id, iso(60, 11), iso(60, 11)),
  );

  // The kept window of daily snapshots for the demo channel (30 days and the baseline day before
  // them, decision 0304), ending today, so /analytics has a story to tell. The numbers are a
  // function of the date alone, so a later run only adds the new days.
  const demoChannelId = uuid(201);
  const snapshots = demoChannelSnapshots(new Date(), 31); // SNAPSHOT_RETENTION_DAYS (channels/analytics.ts) + 1
  for (const snap of snapshots) {
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO channel_snapshots (id, channel_row_id, day, subscriber_count, view_count, video_count, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(snap.id, demoChannelId, snap.day, snap.subscribers, snap.views, snap.videos, `${snap.day}T03:17:00.000Z`),
    );
  }
  // The demo channel (no stored authorization, so never refreshed for real) shows today's numbers.
  const latest = snapshots.at(-1);
  if (latest)
    statements.push(
      db
        .prepare(
          `UPDATE youtube_channels SET subscriber_count = ?, view_count = ?, video_count = ?, last_synced_at = ?
         WHERE id = ? AND NOT EXISTS (SELECT 1 FROM youtube_channel_tokens t WHERE t.channel_row_id = youtube_channels.id)`,
        )
        .bind(latest.subscribers, latest.views, latest.videos, `${latest.day}T03:17:00.000Z`, demoChannelId),
    );

  // The music catalogue, submissions and the creator's licences (app/dev/music-seed.ts).
  const music = await musicSeed({
    db,
    media,
    partnerId: partner.id,
    adminId: admin.id,
    creatorId: creator.id,
    encodeMp3,
    channels: [
      { kind: "youtube", ref: uuid(201), title: "Casey Creates", url: "https://www.youtube.com/@caseycreates" },
      { kind: "manual", ref: uuid(301), title: "Casey Creates Clips", url: "https://www.youtube.com/@caseycreatesclips" },
    ],
  });
  statements.push(...music.statements);
  const tracksUploaded = music.tracksUploaded;

  // Three months of earnings, a paid and a pending payout (app/dev/payments-seed.ts).
  statements.push(
    ...paymentsSeed({
      db,
      adminId: admin.id,
      creator: { userId: creator.id, sourceId: "UCdemoCaseyCreates0001", net: [18342, 24517, 21099] },
      clip: {
        id: uuid(6101),
        url: "https://www.youtube.com/shorts/DemoClip001",
        creatorUserId: creator.id,
        clipperUserId: clipper.id,
        clipperName: "Charlie Clipper",
        net: 4135,
      },
      agreements: { noticeUserId: manager.id, offerUserId: partner.id },
    }),
  );

  // The community chat's rooms and a few messages (app/dev/chat-seed.ts).
  statements.push(...chatSeed({ db, adminId: admin.id, creatorId: creator.id, clipperId: clipper.id }));

  // People at every step of the funnel, some referred by the demo creator, with activity (app/dev/growth-seed.ts).
  statements.push(...growthSeed({ db, referrerId: creator.id, agencyId: null }));

  // A live campaign with submissions in each state, an ended one and a draft (app/dev/campaigns-seed.ts).
  statements.push(...campaignsSeed({ db, adminId: admin.id, creatorId: creator.id, channelId: "UCdemoCaseyCreates0001", trackId: uuid(101) }));

  // The creator's source folder, the clipper's clips in each state and a split history (app/dev/clipping-seed.ts).
  statements.push(...(await clippingSeed({ db, media, creatorId: creator.id, clipperId: clipper.id, linkId: uuid(401) })));

  // A thumbnail project and export of the admin's; the demo channel's stand-in thumbnail (app/dev/thumbnails-seed.ts).
  statements.push(...(await thumbnailsSeed({ db, media, adminId: admin.id, channelRowId: uuid(201), channelId: "UCdemoCaseyCreates0001" })));

  // The notifications of the payouts and reviews above, so the bell tells the same story (after them: it reads their rows).
  statements.push(...notificationsSeed({ db, adminId: admin.id }));

  // One batch: all or nothing.
  await db.batch(statements);
  return { usersCreated: missing.length, tracksUploaded };
}
