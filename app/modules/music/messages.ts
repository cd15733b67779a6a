// The partner's submission and the admin's review: limits, labels and messages, without zod, so
// the music screens can import them on their first load (docs/decisions/0086). The schemas that
// use them are in ./submission-schema, which re-exports this file.

const MB = 1024 * 1024;
export const AUDIO_MAX_BYTES = 50 * MB;
export const COVER_MAX_BYTES = 5 * MB;
/**
 * The most a submission's body may be: the files at their caps and the text fields. No preview: the
 * server makes it from the master (docs/decisions/0289).
 */
export const SUBMISSION_MAX_BYTES = AUDIO_MAX_BYTES + COVER_MAX_BYTES + MB;
/** Audio and covers of a partner's tracks in review or published (docs/decisions/0112). */
export const PARTNER_QUOTA_BYTES = 2 * 1024 * MB;
/** Submissions a partner may file per hour. */
export const SUBMIT_LIMIT = { maxAttempts: 10, windowMs: 60 * 60_000 };

export const TITLE_MAX = 120;
export const ARTIST_MAX = 120;
export const TAGS_MAX = 12;
export const TAG_MAX_CHARS = 30;
export const NOTE_MAX = 1000;

export const SUBMIT_MESSAGES = {
  audioMissing: "Please choose the audio file (MP3 or WAV).",
  audioType: "The audio must be an MP3 or WAV file.",
  audioSize: "The audio must be 50 MB or smaller.",
  audioEmpty: "The audio file is empty.",
  audioLength: "The audio file looks damaged: its length does not match its size.",
  coverMissing: "Please choose a cover image (JPEG, PNG or WebP).",
  coverType: "The cover must be a JPEG, PNG or WebP image.",
  coverSize: "The cover must be 5 MB or smaller.",
  coverEmpty: "The cover image is empty.",
  tooLarge: "The upload is too large: the audio may be up to 50 MB and the cover up to 5 MB.",
  quota: (usedMb: number, quotaMb: number) =>
    `Your storage is full: your tracks in review and published use ${usedMb} MB of your ${quotaMb} MB. Withdrawn and rejected tracks do not count; ask us to withdraw tracks you no longer need.`,
  rateLimited: "You have submitted many tracks in the last hour. Please wait before submitting another.",
  submitted: { title: "Track submitted", description: "Your track is in review. We will notify you when it is decided." },
  failedTitle: "Submission failed",
} as const;

/** Tags as typed (commas or spaces) → lower-case words of letters, digits and dashes, each once. */
export function normaliseTags(raw: string): string[] {
  const words = raw
    .toLowerCase()
    .split(/[\s,;#]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}-]+/gu, "").replace(/^-+|-+$/g, ""))
    .filter(Boolean);
  return [...new Set(words)];
}

export const RESUBMIT_MESSAGES = {
  resubmitted: { title: "Track resubmitted", description: "Your changes are in review. We will notify you when it is decided." },
  failedTitle: "Resubmission failed",
  notRejected: "Only a rejected track can be resubmitted: this one is already in review or decided.",
  notFound: "Submission not found.",
} as const;

/** A partner withdrawing their own submission while it is in review (/music/submissions; decision 0323). */
export const WITHDRAW_MESSAGES = {
  withdrawn: { title: "Submission withdrawn.", description: "Its files are deleted; it no longer counts towards your storage." },
  failedTitle: "Withdrawal failed",
  notFound: "Submission not found: it may already have been withdrawn.",
  notInReview: "Only a submission in review can be withdrawn: this one has already been decided.",
} as const;

/** A submission's history entry (music_track_events.kind) as the partner and the admin read it. */
export const TRACK_EVENT_LABELS = {
  rejected: "Rejected",
  resubmitted: "Resubmitted",
  approved: "Approved",
  withdrawn: "Withdrawn",
} as const;

/** The changed fields of a resubmission, in words. */
export const CHANGE_LABELS: Record<string, string> = {
  title: "title",
  artist: "artist",
  genre: "genre",
  mood: "mood",
  bpm: "BPM",
  tags: "tags",
  audio: "audio file",
  cover: "cover",
};

export const REVIEW_TITLES = { approve: "Approval failed", reject: "Rejection failed", withdraw: "Withdrawal failed" } as const;

export const TRACK_STATUS_LABELS = {
  in_review: "In review",
  published: "Published",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
} as const;
