// Constants, labels and messages of the clipping area, without zod: what the page imports on its
// first load (docs/decisions/0086). ./schema re-exports them for the server.

export const MIB = 1024 * 1024;
/** Parts of a source upload: equal, 8 MiB (R2 needs ≥ 5 MiB but the last; the Worker takes ≤ 100 MB a request). */
export const SOURCE_PART_BYTES = 8 * MIB;
/** The largest source video: 5 GB. */
export const MAX_SOURCE_BYTES = 5 * 1000 * 1000 * 1000;
/** A creator's source folder: 20 GB in all (uploads in progress count with their declared size). */
export const SOURCE_QUOTA_BYTES = 20 * 1000 * 1000 * 1000;
/** Uploads left incomplete longer than this are aborted by the scheduled job. */
export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** How long a signed download URL lasts (access is checked again at every request). */
export const DOWNLOAD_URL_SECONDS = 15 * 60;
export const SOURCE_NAME_MAX = 120;
export const CLIP_URL_MAX = 300;
export const MAX_VIEWS = 10_000_000_000;

export const CLIP_PLATFORM_LABELS = {
  youtube_shorts: "YouTube Shorts",
  tiktok: "TikTok",
  instagram_reels: "Instagram Reels",
} as const;
export type ClipPlatform = keyof typeof CLIP_PLATFORM_LABELS;

export const CLIP_STATUS_LABELS = {
  pending: "Pending review",
  approved: "Approved",
  rejected: "Rejected",
  removal_requested: "Removal requested",
  removed: "Removed",
} as const;
export type ClipStatus = keyof typeof CLIP_STATUS_LABELS;

export const SPLIT_STATUS_LABELS = { pending: "Pending", approved: "Approved", declined: "Declined" } as const;

/** An invitation's state as the creator reads it. */
export const INVITATION_STATE_LABELS = {
  open: "Not used yet",
  expired: "Expired",
  accepted: "Waiting for your approval",
  approved: "Approved",
  declined: "Declined",
  withdrawn: "Withdrawn",
} as const;
export type InvitationState = keyof typeof INVITATION_STATE_LABELS;

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let v = bytes;
  let u = -1;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u += 1;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

export const CLIPPING_MESSAGES = {
  // Source folder
  fileRequired: "Choose a video file.",
  wrongType: "Source videos must be MP4, MOV or WebM files.",
  tooLarge: "A source video must be 5 GB or smaller.",
  empty: "The file is empty.",
  quota: (used: number) =>
    `Your source folder is full: ${formatBytes(used)} of ${formatBytes(SOURCE_QUOTA_BYTES)} used. Delete a video to make room for this one.`,
  nameRequired: "Name is required.",
  nameTooLong: `Name must be ${SOURCE_NAME_MAX} characters or less.`,
  uploadGone: "This upload is no longer in progress. Start it again.",
  uploadComplete: "This upload is already complete.",
  uploadFinishing: "This upload is being finished or cancelled by another request. Reload the page in a moment.",
  badPart: "This part of the upload is not the expected size. Start the upload again.",
  partsMissing: "Some parts of the upload are missing. Resume the upload.",
  sourceNotFound: "This source video is not in the folder.",
  // Access
  notYourCreator: "You do not clip for this creator.",
  revoked: "Your access to this creator's source folder has been revoked.",
  agreementRequired: "Please accept the Clipper Agreement to continue as a Clipper.",
  alreadyLinked: "You already clip for this creator.",
  // Invitations (docs/decisions/0205)
  invitationInvalid: "This clipper invitation link is not valid.",
  invitationUsed: "This clipper invitation has already been used. Ask the creator for a new one.",
  invitationExpired: "This clipper invitation has expired. Ask the creator for a new one.",
  invitationWithdrawn: "The creator withdrew this clipper invitation. Ask them for a new one.",
  invitationOwn: "This is your own clipper invitation.",
  invitationWrongEmail: "This clipper invitation was sent to another e-mail address. Sign in with that address, or ask the creator for an invitation to yours.",
  requestWaiting: "You already asked to clip for this creator. They will approve or decline your request.",
  invitationOwnEmail: "Enter the e-mail address of the person you invite, not your own.",
  invitationNotFound: "This invitation was not found.",
  invitationAnswered: "This invitation has already been answered or withdrawn.",
  tooManyInvitations: "You have created too many invitations in the last hour. Please try again later.",
  invitationCodeRequired: "Paste the invitation link or its code.",
  emailInvalid: "Please enter a valid email address.",
  notLinked: "This clipper is not linked to you.",
  alreadyRevoked: "This clipper's access is already revoked.",
  // Clips
  urlRequired: "Enter the clip's URL.",
  unsupportedPlatform: "Clips can be submitted for YouTube Shorts, TikTok or Instagram Reels only.",
  urlNotPlatform: (label: string) => `This URL is not a ${label} link.`,
  duplicateClip: "This clip has already been submitted.",
  sourceRequired: "Choose the source video the clip was cut from.",
  clipNotFound: "This clip was not found.",
  alreadyReviewed: "This clip has already been reviewed.",
  notApproved: "Only an approved clip can be asked to be removed.",
  videoNotFound: "YouTube does not know this video, so it cannot be approved with its views. Check the link with the clipper, or reject the clip.",
  videoUncheckable: "YouTube could not be reached to check this video. Try again in a few minutes.",
  videoNotFoundNote: "YouTube does not know this video: check the link before approving it",
  // Split
  shareRange: "The share must be between 0% and 100%.",
  shareNotHigher: (current: string) => `Ask for more than your current share (${current}).`,
  requestOpen: "A split request is already waiting for the creator.",
  requestGone: "This split request has already been answered.",
  viewsRange: "Views must be a whole number of 0 or more.",
} as const;

export const CLIPPING_TOASTS = {
  inviteAccepted: { title: "Invitation accepted", description: "The creator will approve you before you can use their source folder." },
  inviteDismissed: { title: "Invitation dismissed", description: "The clipper invitation was dismissed." },
  invitationWithdrawn: { title: "Invitation withdrawn", description: "Its link no longer works." },
  clipperApproved: { title: "Clipper approved", description: "They can now download your source videos and submit clips." },
  clipperDeclined: { title: "Request declined", description: "The person has been told." },
  revoked: { title: "Access revoked", description: "The clipper can no longer download your source videos." },
  renamed: { title: "Renamed", description: "The source video was renamed." },
  deleted: { title: "Deleted", description: "The source video was deleted." },
  submitted: { title: "Clip submitted", description: "The creator will review your clip." },
  approved: { title: "Clip approved", description: "The clip counts toward your shared revenue." },
  rejected: { title: "Clip rejected", description: "The clipper has been told." },
  removalRequested: { title: "Removal requested", description: "The clipper has been asked to remove the clip." },
  removed: { title: "Clip marked removed", description: "The creator has been told." },
  splitRequested: { title: "Split requested", description: "The creator will approve or decline it." },
  splitApproved: { title: "Split approved", description: "The new split applies to revenue from now on." },
  splitDeclined: { title: "Split declined", description: "The split stays as it was." },
  viewsSaved: { title: "Views saved", description: "The clip's views were updated." },
} as const;

export const CLIPPING_ACTION_TITLES: Record<string, string> = {
  "accept-invite": "Invitation not accepted",
  "create-invitation": "Invitation not created",
  "withdraw-invitation": "Invitation not withdrawn",
  "approve-clipper": "Clipper not approved",
  "decline-clipper": "Request not declined",
  revoke: "Access not revoked",
  rename: "Not renamed",
  delete: "Not deleted",
  "submit-clip": "Clip not submitted",
  "review-clip": "Clip not reviewed",
  "request-removal": "Removal not requested",
  "mark-removed": "Action failed",
  "request-split": "Split not requested",
  "answer-split": "Split not answered",
  "set-views": "Views not saved",
};
