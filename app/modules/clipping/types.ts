import type { ClipPlatform, ClipStatus, InvitationState } from "./messages";

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
  /** YouTube answered that it has no such video (issue 31 §3): the clip cannot be approved until it does. */
  videoNotFound: boolean;
  sourceName: string;
  createdAt: string;
  creatorUserId: string;
  clipperUserId: string;
  /** The creator–clipper link it was submitted under (its split history decides the clip's split). */
  linkId: string | null;
  creatorName: string;
  clipperName: string;
};

/** One of the creator's invitations (the link itself is shown once, when it is made). */
export type InvitationRow = {
  id: string;
  /** The address it was sent to; null: anyone with the link. */
  email: string | null;
  state: InvitationState;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  decidedAt: string | null;
  /** Who used it (for the creator to approve or decline). */
  personName: string | null;
  personEmail: string | null;
  /** Whether that person's account is approved by an admin (they need it too before using the folder). */
  personApproved: boolean | null;
};

/** An invitation this person used, waiting for the creator's answer. */
export type WaitingRequest = { id: string; creatorName: string; acceptedAt: string };

/** An invitation kept from a link the person opened, which they can accept now. */
export type PendingInvite = { code: string; creatorName: string };

export type ClippingPage = {
  invitations: InvitationRow[];
  waitingRequests: WaitingRequest[];
  pendingInvite: PendingInvite | null;
  clippers: LinkRow[];
  creators: (LinkRow & { sources: SourceRow[] })[];
  sources: SourceRow[];
  usage: { usedBytes: number; quotaBytes: number };
  clipsToReview: ClipRow[];
  myClips: ClipRow[];
  viewsToEnter: ClipRow[];
};
