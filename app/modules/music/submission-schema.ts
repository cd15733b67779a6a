import { z } from "zod";
import { checkbox } from "~/lib/forms";
import { BPM_MAX, BPM_MIN, DURATION_LIMIT, GENRES, MOODS } from "./library";

// The partner's submission form and the admin's review forms: the zod schemas the browser and
// the server share, the limits and the messages. The files themselves (audio, cover) are checked
// by their bytes in submissions.server.ts (sniff.ts). Client-safe. docs/decisions/0110–0114.

const MB = 1024 * 1024;
export const AUDIO_MAX_BYTES = 50 * MB;
export const COVER_MAX_BYTES = 5 * MB;
/** The most a submission's body may be: both files at their caps and the text fields. */
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

const trimmed = (max: number, required: string, tooLong: string) => z.string(required).trim().min(1, required).max(max, tooLong);

/** Tags as typed (commas or spaces) → lower-case words of letters, digits and dashes, each once. */
export function normaliseTags(raw: string): string[] {
  const words = raw
    .toLowerCase()
    .split(/[\s,;#]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}-]+/gu, "").replace(/^-+|-+$/g, ""))
    .filter(Boolean);
  return [...new Set(words)];
}

const TAGS_ERROR = `Use at most ${TAGS_MAX} tags of up to ${TAG_MAX_CHARS} letters or digits each.`;

export const submissionSchema = z.object({
  submissionKey: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Please reload the page and try again."),
  title: trimmed(TITLE_MAX, "Please enter the track's title.", `The title may be at most ${TITLE_MAX} characters.`),
  artist: trimmed(ARTIST_MAX, "Please enter the artist's name.", `The artist's name may be at most ${ARTIST_MAX} characters.`),
  genre: z.enum(GENRES, "Please choose a genre from the list."),
  mood: z.enum(MOODS, "Please choose a mood from the list."),
  bpm: z
    .string("Please enter the BPM.")
    .trim()
    .min(1, "Please enter the BPM.")
    .regex(/^\d{1,3}$/, `BPM must be a whole number from ${BPM_MIN} to ${BPM_MAX}.`)
    .transform(Number)
    .refine((n) => n >= BPM_MIN && n <= BPM_MAX, `BPM must be a whole number from ${BPM_MIN} to ${BPM_MAX}.`),
  tags: z
    .string()
    .optional()
    .transform((v) => normaliseTags(v ?? ""))
    .refine((tags) => tags.length <= TAGS_MAX && tags.every((t) => t.length <= TAG_MAX_CHARS), TAGS_ERROR)
    .transform((tags) => tags.join(" ")),
  rights: checkbox.refine((v) => v, "Please confirm that you own or control the rights to this track."),
  /** Seconds, measured by the browser (Web Audio); empty when it could not decode the file. */
  durationSeconds: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? null : Number(v)))
    .refine(
      (n) => n === null || (Number.isFinite(n) && n > 0 && n <= DURATION_LIMIT),
      `The track must be shorter than ${DURATION_LIMIT / 60} minutes; its length could not be read otherwise.`,
    ),
  /** The waveform as a JSON array (peaks.ts checks its shape); empty without JavaScript. */
  peaks: z.string().optional(),
});

export type SubmissionInput = z.output<typeof submissionSchema>;

const trackId = z.string().regex(/^[0-9a-f-]{36}$/i, "Track not found.");

export const reviewSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), trackId, note: z.string().trim().max(NOTE_MAX).optional() }),
  z.object({
    intent: z.literal("reject"),
    trackId,
    note: z
      .string("Please write a note for the partner.")
      .trim()
      .min(1, "Please write a note for the partner.")
      .max(NOTE_MAX, `The note may be at most ${NOTE_MAX} characters.`),
  }),
  z.object({
    intent: z.literal("withdraw"),
    trackId,
    reason: z
      .string("Please give a reason for withdrawing this track.")
      .trim()
      .min(1, "Please give a reason for withdrawing this track.")
      .max(NOTE_MAX, `The reason may be at most ${NOTE_MAX} characters.`),
  }),
]);

export type ReviewDecision = z.output<typeof reviewSchema>;

export const REVIEW_TITLES = { approve: "Approval failed", reject: "Rejection failed", withdraw: "Withdrawal failed" } as const;

export const TRACK_STATUS_LABELS = {
  in_review: "In review",
  published: "Published",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
} as const;
