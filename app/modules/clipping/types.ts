import type { ClipPlatform, ClipStatus } from "./messages";

// Types /clipping shares with the server.

export type SplitRow = {
  id: string;
  fromBps: number;
  shareBps: number;
  status: "pending" | "approved" | "declined";
  createdAt: string;
  decidedAt: string | null;
};

export type LinkRow = {
  id: string;
  /** The other side: the clipper on the creator's list, the creator on the clipper's. */
  personId: string;
  personName: string;
  status: "active" | "revoked";
  shareBps: number;
  createdAt: string;
  revokedAt: string | null;
  clipCount: number;
  views: number;
  splits: SplitRow[];
};

export type SourceRow = {
  id: string;
  name: string;
  sizeBytes: number;
  status: "uploading" | "ready";
  createdAt: string;
  uploadedParts: number;
  partCount: number;
};

export type ClipRow = {
  id: string;
  platform: ClipPlatform;
  url: string;
  status: ClipStatus;
  views: number;
  sourceName: string;
  createdAt: string;
  creatorUserId: string;
  clipperUserId: string;
  creatorName: string;
  clipperName: string;
};

export type ClippingPage = {
  /** The creator's clipper invite link, absolute (APP_ORIGIN). */
  inviteLink: string | null;
  pendingInvite: { code: string; creatorName: string } | null;
  clippers: LinkRow[];
  creators: (LinkRow & { sources: SourceRow[] })[];
  sources: SourceRow[];
  usage: { usedBytes: number; quotaBytes: number };
  clipsToReview: ClipRow[];
  myClips: ClipRow[];
  viewsToEnter: ClipRow[];
};
