import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { Select } from "~/ui/select";
import { toast } from "~/ui/toaster";
import { GENRES, MOODS } from "../library";
import { browserPeaks } from "../peaks";
import { formatTime } from "../player";
import { SNIFF_BYTES, sniffAudio, sniffCover } from "../sniff";
import { AUDIO_MAX_BYTES, COVER_MAX_BYTES, SUBMIT_MESSAGES as M, TAGS_MAX } from "../messages";
import { uploadForm } from "../upload";
import { Waveform } from "./waveform";

// The partner's submission form. Without JavaScript it is a plain multipart form posted to the
// route's action (the server computes a WAV's waveform; an MP3 gets a flat one). With JavaScript
// the browser checks the fields with the same schema and the files by their bytes, measures the
// length and waveform with Web Audio, and sends the form with XMLHttpRequest to show a progress
// bar. The server decides either way, and makes a WAV's listening preview itself from the stored
// master (docs/decisions/0289): the browser sends no preview. With `resubmit`, the same form sends
// a rejected track back for review (issue 30): its fields filled in, the files optional (empty
// keeps the stored ones).

/** A rejected track being resubmitted: its id and current fields. */
export type ResubmitTrack = { id: string; title: string; artist: string; genre: string | null; mood: string | null; bpm: number | null; tags: string };

type Props = {
  submissionKey?: string;
  storage: { usedBytes: number; quotaBytes: number };
  failure: ActionFailure | null;
  resubmit?: ResubmitTrack;
};

const MB = 1024 * 1024;
const FIELD_ORDER = ["audio", "cover", "title", "artist", "genre", "mood", "bpm", "tags", "rights", "durationSeconds", "peaks", "submissionKey"];

/** The track's audio or cover: required on a first submission; on a resubmission optional, an empty field keeping the stored file. */
function TrackFileField({
  name,
  formats,
  accept,
  resubmit,
  error,
  onFile,
}: {
  name: "audio" | "cover";
  formats: string;
  accept: string;
  resubmit: boolean;
  error: string | undefined;
  onFile: (file: File | undefined) => void;
}) {
  return (
    <Field
      // Required on a first submission, and the label says so, as optional fields say "(optional)" (issue 42 §5).
      label={resubmit ? `Replace the ${name} (optional: ${formats})` : `${name === "cover" ? "Cover image" : "Audio"} (required: ${formats})`}
      name={name}
      type="file"
      accept={accept}
      required={!resubmit}
      hint={resubmit ? `Leave empty to keep the current ${name}.` : undefined}
      error={error}
      onChange={(e) => onFile(e.currentTarget.files?.[0])}
      className="min-w-0"
    />
  );
}

/** No file chosen in a file field (a resubmission keeps the stored file). */
const noFile = (file: File | null) => !file || file.size === 0;

async function checkFileInBrowser(file: File | null, kind: "audio" | "cover"): Promise<string | null> {
  if (!file || (file.size === 0 && !file.name)) return kind === "audio" ? M.audioMissing : M.coverMissing;
  if (file.size === 0) return kind === "audio" ? M.audioEmpty : M.coverEmpty;
  if (kind === "audio" && file.size > AUDIO_MAX_BYTES) return M.audioSize;
  if (kind === "cover" && file.size > COVER_MAX_BYTES) return M.coverSize;
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  if (kind === "audio" && !sniffAudio(head)) return M.audioType;
  if (kind === "cover" && !sniffCover(head)) return M.coverType;
  return null;
}

export function SubmitForm({ submissionKey, storage, failure, resubmit }: Props) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>(failure?.errors ?? {});
  const [formError, setFormError] = useState<string | null>(failure && Object.keys(failure.errors).length === 0 ? failure.toast.description : null);
  const [measured, setMeasured] = useState<{ duration: number; peaks: number[] } | null>(null);
  const [measuring, setMeasuring] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [coverPreview, setCoverPreview] = useState<string | null>(null);
  const stored: Record<string, string> = resubmit
    ? {
        title: resubmit.title,
        artist: resubmit.artist,
        genre: resubmit.genre ?? "",
        mood: resubmit.mood ?? "",
        bpm: resubmit.bpm?.toString() ?? "",
        tags: resubmit.tags,
      }
    : {};
  const values = failure?.values ?? stored;
  const action = resubmit ? `/music/submissions/${resubmit.id}/resubmit` : "/music/submit";

  useEffect(() => {
    setErrors(failure?.errors ?? {});
    setFormError(failure && Object.keys(failure.errors).length === 0 ? failure.toast.description : null);
    if (failure) toast.error(failure.toast.title, { description: failure.toast.description });
  }, [failure]);

  useEffect(() => () => void (coverPreview && URL.revokeObjectURL(coverPreview)), [coverPreview]);

  function focusFirst(errs: Record<string, string>) {
    const first = FIELD_ORDER.find((k) => errs[k]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function onAudio(file: File | undefined) {
    setMeasured(null);
    if (!file) return;
    const problem = await checkFileInBrowser(file, "audio");
    setErrors((e) => ({ ...e, audio: problem ?? "" }));
    if (problem) return;
    setMeasuring(true);
    const result = await browserPeaks(file);
    setMeasuring(false);
    setMeasured(result);
  }

  async function onCover(file: File | undefined) {
    setCoverPreview(null);
    if (!file) return;
    const problem = await checkFileInBrowser(file, "cover");
    setErrors((e) => ({ ...e, cover: problem ?? "" }));
    if (!problem) setCoverPreview(URL.createObjectURL(file));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (progress !== null) return; // one upload at a time: a double click files one submission
    const form = event.currentTarget;
    const data = new FormData(form);
    const errs: Record<string, string> = {};
    // The schema (and zod) load on the first submit, not with the page (decision 0086); if the
    // chunk cannot load, the server checks the same schema.
    const check = await Promise.all([import("../submission-schema"), import("~/lib/forms")]).catch(() => null);
    if (check) {
      const [{ submissionSchema, resubmissionSchema }, { fieldErrorsOf, formToObject }] = check;
      const parsed = (resubmit ? resubmissionSchema : submissionSchema).safeParse(formToObject(data));
      if (!parsed.success) Object.assign(errs, fieldErrorsOf(parsed.error));
    }
    const audioFile = data.get("audio") as File | null;
    const coverFile = data.get("cover") as File | null;
    const audioProblem = resubmit && noFile(audioFile) ? null : await checkFileInBrowser(audioFile, "audio");
    const coverProblem = resubmit && noFile(coverFile) ? null : await checkFileInBrowser(coverFile, "cover");
    if (audioProblem) errs.audio = audioProblem;
    if (coverProblem) errs.cover = coverProblem;
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length > 0) {
      focusFirst(errs);
      return;
    }
    setProgress(0);
    const outcome = await uploadForm(form.getAttribute("action") ?? action, data, setProgress).done;
    if (outcome.kind === "redirect") {
      navigate(outcome.to);
      return;
    }
    setProgress(null);
    if (outcome.kind === "failure") {
      setErrors(outcome.failure.errors);
      if (Object.keys(outcome.failure.errors).length === 0) setFormError(outcome.failure.toast.description);
      toast.error(outcome.failure.toast.title, { description: outcome.failure.toast.description });
      focusFirst(outcome.failure.errors);
    } else {
      setFormError(outcome.message);
      toast.error(M.failedTitle, { description: outcome.message });
    }
  }

  const uploading = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);
  const usedMb = Math.ceil(storage.usedBytes / MB);
  const quotaMb = Math.round(storage.quotaBytes / MB);

  return (
    <form
      ref={formRef}
      method="post"
      action={action}
      encType="multipart/form-data"
      onSubmit={onSubmit}
      noValidate
      className="max-w-3xl space-y-6"
      aria-describedby="submit-storage"
    >
      {resubmit ? null : <input type="hidden" name="submissionKey" value={submissionKey} />}
      <input type="hidden" name="durationSeconds" value={measured ? measured.duration.toFixed(2) : ""} />
      <input type="hidden" name="peaks" value={measured ? JSON.stringify(measured.peaks) : ""} />

      {formError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {formError}
        </div>
      ) : null}

      <p id="submit-storage" className="text-sm text-slate-600">
        Storage used by your tracks in review and published: <strong className="text-slate-900">{usedMb} MB</strong> of {quotaMb} MB.
      </p>

      <fieldset className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 sm:p-6">
        <legend className="px-1 text-base font-semibold text-slate-900">Files</legend>
        <div>
          <TrackFileField
            name="audio"
            formats="MP3 or WAV, up to 50 MB"
            accept=".mp3,.wav,audio/mpeg,audio/wav,audio/x-wav"
            resubmit={!!resubmit}
            error={errors.audio || errors.durationSeconds || errors.peaks || undefined}
            onFile={(file) => void onAudio(file)}
          />
          <div className="mt-2 min-h-10 text-sm text-slate-600" aria-live="polite">
            {measuring ? "Reading the audio…" : null}
            {!measuring && !measured ? <p>Once you choose a file, its length and waveform show here.</p> : null}
            {measured ? (
              <div>
                <p>Length {formatTime(measured.duration)} · waveform ready</p>
                <Waveform peaks={measured.peaks} bars={64} className="mt-1 h-8 w-full" />
              </div>
            ) : null}
          </div>
        </div>
        <div>
          <TrackFileField
            name="cover"
            formats="JPEG, PNG or WebP, up to 5 MB"
            accept="image/jpeg,image/png,image/webp"
            resubmit={!!resubmit}
            error={errors.cover || undefined}
            onFile={(file) => void onCover(file)}
          />
          {coverPreview ? <img src={coverPreview} alt="Cover preview" className="mt-2 h-24 w-24 rounded-md object-cover" /> : null}
        </div>
      </fieldset>

      <fieldset className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 sm:p-6">
        <legend className="px-1 text-base font-semibold text-slate-900">About the track</legend>
        <Field label="Title" name="title" required maxLength={120} defaultValue={values.title} error={errors.title || undefined} autoComplete="off" />
        <Field label="Artist" name="artist" required maxLength={120} defaultValue={values.artist} error={errors.artist || undefined} autoComplete="off" />
        <Select
          label="Genre"
          name="genre"
          required
          defaultValue={values.genre ?? ""}
          error={errors.genre || undefined}
          options={choices("Choose a genre", GENRES)}
        />
        <Select label="Mood" name="mood" required defaultValue={values.mood ?? ""} error={errors.mood || undefined} options={choices("Choose a mood", MOODS)} />
        <Field
          label="BPM"
          name="bpm"
          type="number"
          inputMode="numeric"
          min={40}
          max={250}
          step={1}
          required
          defaultValue={values.bpm}
          error={errors.bpm || undefined}
          hint="A whole number from 40 to 250."
        />
        <Field
          label="Tags (optional)"
          name="tags"
          defaultValue={values.tags}
          error={errors.tags || undefined}
          hint={`Up to ${TAGS_MAX} words, separated by commas or spaces: e.g. summer, guitar, upbeat.`}
          autoComplete="off"
        />
      </fieldset>

      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="flex items-start gap-3">
          <input
            id="submit-rights"
            name="rights"
            type="checkbox"
            required
            defaultChecked={values.rights === "on"}
            aria-invalid={errors.rights ? true : undefined}
            aria-describedby={errors.rights ? "submit-rights-error" : undefined}
            className="mt-1 h-4 w-4 rounded border-slate-300"
          />
          <label htmlFor="submit-rights" className="text-sm text-slate-800">
            I own or control all rights to this track and its cover, and I license it under the{" "}
            <Link to="/music-partner-terms" className="font-medium text-brand-700 underline">
              music partner terms
            </Link>
            .
          </label>
        </div>
        {errors.rights ? (
          <p id="submit-rights-error" className="mt-1 text-sm text-red-700">
            {errors.rights}
          </p>
        ) : null}
      </div>

      {uploading ? (
        <div className="space-y-1" aria-live="polite">
          <label htmlFor="submit-progress" className="block text-sm font-medium text-slate-800">
            {percent < 100 ? `Uploading… ${percent}%` : "Processing…"}
          </label>
          <progress id="submit-progress" max={100} value={percent} className="h-2 w-full overflow-hidden rounded-full accent-slate-900">
            {percent}%
          </progress>
        </div>
      ) : null}

      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass.primary} disabled={uploading || measuring}>
          {uploading ? "Uploading…" : resubmit ? "Resubmit for review" : "Submit for review"}
        </button>
        <Link to="/music/submissions" className={buttonClass.secondary}>
          My submissions
        </Link>
      </div>
    </form>
  );
}

/** A select's options: the prompt (no value), then the list. */
const choices = (prompt: string, list: readonly string[]) => [{ value: "", label: prompt }, ...list.map((v) => ({ value: v, label: v }))];
