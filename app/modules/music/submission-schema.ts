import { z } from "zod";
import { checkbox } from "~/lib/forms";
import { oneLine } from "~/lib/sanitize";
import { BPM_MAX, BPM_MIN, DURATION_LIMIT, GENRES, MOODS } from "./library";
import { NOTE_MAX, normaliseTags, TAG_MAX_CHARS, TAGS_MAX, TITLE_MAX, ARTIST_MAX } from "./messages";

export * from "./messages";

// The partner's submission form and the admin's review forms: the zod schemas the browser and
// the server share, the limits and the messages. The files themselves (audio, cover) are checked
// by their bytes in submissions.server.ts (sniff.ts). Client-safe. docs/decisions/0110–0114.

/** A title or name: one line of plain text (docs/decisions/0287). */
const trimmed = (max: number, required: string, tooLong: string) => z.string(required).trim().min(1, required).max(max, tooLong).transform(oneLine);

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

/**
 * A rejected track sent back for review with changes (issue 30): the submit form's fields, the
 * files optional (an empty file field keeps the stored one), the rights confirmed again. The
 * track is the one in the form's address (/music/submissions/:id/resubmit).
 */
export const resubmissionSchema = submissionSchema.omit({ submissionKey: true });

export type ResubmissionInput = z.output<typeof resubmissionSchema>;

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

/** /music/submissions: the partner withdraws a submission in review (decision 0323). */
export const partnerSubmissionSchema = z.object({ intent: z.literal("withdraw"), id: trackId });

export type ReviewDecision = z.output<typeof reviewSchema>;
