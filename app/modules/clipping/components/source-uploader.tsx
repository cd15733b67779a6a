import { useEffect, useRef, useState } from "react";
import { useBlocker, useRevalidator } from "react-router";
import { Button } from "~/ui/button";
import { CLIPPING_MESSAGES as M, MAX_SOURCE_BYTES, SOURCE_PART_BYTES, formatBytes } from "../messages";

// The creator's source upload (docs/decisions/0153, 0257): the file goes to /clipping/upload in
// equal parts (the first with 'start'), each retried after a dropped connection. While it runs:
// the progress, the speed and the time left, Pause (the part in flight is dropped and sent again on
// Resume), Cancel (the server aborts the R2 multipart upload and drops the row), and a warning
// before leaving the page. Choosing the same file again resumes an upload left unfinished (the
// server answers with the parts it has): the browser cannot keep a file across a reload.

type UploadAnswer = { ok: true; sourceId: string; partBytes: number; partCount: number; uploaded: number[] } | { ok: false; error: string };
type Sent = UploadAnswer | { ok: false; stopped: true };

type Control = { stop: "pause" | "cancel" | null; xhr: XMLHttpRequest | null };

/** One request with upload progress; "stopped" when Pause or Cancel aborted it, "dropped" on a network failure. */
function send(form: FormData, control: Control, onProgress: (loaded: number) => void): Promise<{ status: number; body: unknown } | "stopped" | "dropped"> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    control.xhr = xhr;
    xhr.open("POST", "/clipping/upload");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () => resolve("dropped");
    xhr.onabort = () => resolve("stopped");
    xhr.send(form);
  }).finally(() => {
    control.xhr = null;
  }) as Promise<{ status: number; body: unknown } | "stopped" | "dropped">;
}

/** A request retried with back-off after a dropped connection or a server error. */
async function post(form: FormData, control: Control, onProgress: (loaded: number) => void): Promise<Sent> {
  let lastError = "The connection dropped. Choose the file again to resume.";
  for (let attempt = 0; attempt < 4; attempt++) {
    const res = await send(form, control, onProgress);
    if (res === "stopped") return { ok: false, stopped: true };
    if (res !== "dropped") {
      const body = res.body as (UploadAnswer & { error?: string }) | null;
      if (res.status < 300 && body?.ok) return body;
      if (res.status < 500 && body) return { ok: false, error: body.error ?? "The upload failed." };
      lastError = body?.error ?? "The upload failed.";
    }
    onProgress(0);
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    if (control.stop) return { ok: false, stopped: true };
  }
  return { ok: false, error: lastError };
}

/** 5 s → "5 s", 150 s → "3 min", 4000 s → "1 h 7 min". */
function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

type Phase = "idle" | "uploading" | "paused" | "finishing" | "cancelling";
type Job = { file: File; sourceId: string | null; partBytes: number; partCount: number; done: Set<number> };
/** Speed over the last few seconds: (time, bytes sent) samples. */
type Sample = { t: number; bytes: number };
const SPEED_WINDOW_MS = 8000;

export function SourceUploader() {
  const input = useRef<HTMLInputElement>(null);
  const control = useRef<Control>({ stop: null, xhr: null });
  const job = useRef<Job | null>(null);
  const samples = useRef<Sample[]>([]);
  const [phase, setPhase] = useState<Phase>("idle");
  const [sentBytes, setSentBytes] = useState(0);
  const [speed, setSpeed] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string>("");
  const revalidator = useRevalidator();
  const running = phase !== "idle";

  // Leaving the page while an upload runs (or is paused) loses the file this tab holds: warn first.
  useEffect(() => {
    if (!running) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [running]);
  // The same inside the app: another page stops the upload (a form of this page does not).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => running && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm("An upload is still running. Leave this page and stop it? You can resume it later by choosing the same file again.")) {
      control.current.stop = "pause";
      control.current.xhr?.abort();
      blocker.proceed();
    } else blocker.reset();
  }, [blocker]);

  function bytesDone(j: Job): number {
    let n = 0;
    for (const part of j.done) n += Math.min(j.partBytes, j.file.size - (part - 1) * j.partBytes);
    return n;
  }

  /** Progress of the part in flight: the bytes sent so far and the speed over the last seconds. */
  function progress(j: Job, inFlight: number) {
    const now = performance.now();
    const bytes = bytesDone(j) + inFlight;
    const list = samples.current;
    list.push({ t: now, bytes });
    while (list.length > 2 && now - (list[0]?.t ?? now) > SPEED_WINDOW_MS) list.shift();
    const first = list[0] ?? { t: now, bytes }; // never empty: it holds at least the sample just pushed
    const seconds = (now - first.t) / 1000;
    setSentBytes(bytes);
    if (seconds >= 1 && bytes > first.bytes) setSpeed((bytes - first.bytes) / seconds);
  }

  function stopWith(message: string | null, done = "") {
    job.current = null;
    control.current = { stop: null, xhr: null };
    samples.current = [];
    setPhase("idle");
    setSpeed(null);
    setStatus(done);
    setError(message);
    if (input.current) input.current.value = "";
  }

  async function abortOnServer(sourceId: string | null) {
    setPhase("cancelling");
    if (sourceId) {
      const form = new FormData();
      form.set("intent", "abort");
      form.set("sourceId", sourceId);
      const answer = await post(form, { stop: null, xhr: null }, () => {});
      if (!answer.ok && "error" in answer) return stopWith(answer.error);
    }
    stopWith(null, "Upload cancelled. Nothing of it is kept.");
    revalidator.revalidate();
  }

  /** Sends what is missing of the job's file, from wherever it stands. */
  async function run(j: Job) {
    const c = control.current;
    c.stop = null;
    setPhase("uploading");
    setStatus(`Uploading ${j.file.name}`);
    samples.current = [];
    setSpeed(null);
    if (!j.sourceId) {
      const start = new FormData();
      start.set("intent", "start");
      start.set("name", j.file.name);
      start.set("size", String(j.file.size));
      start.set("chunk", j.file.slice(0, Math.min(SOURCE_PART_BYTES, j.file.size)), "part");
      // Start is not aborted by Cancel (the server may already have made the upload): its answer
      // gives the id Cancel then aborts.
      const started = await post(start, { stop: null, xhr: null }, (n) => progress(j, n));
      if (!started.ok) return "error" in started ? stopWith(started.error) : stopWith(null);
      j.sourceId = started.sourceId;
      j.partBytes = started.partBytes;
      j.partCount = started.partCount;
      j.done = new Set(started.uploaded);
      progress(j, 0);
    }
    for (let n = 1; n <= j.partCount; n++) {
      if (c.stop) break;
      if (j.done.has(n)) continue;
      const form = new FormData();
      form.set("intent", "part");
      form.set("sourceId", j.sourceId);
      form.set("partNumber", String(n));
      form.set("chunk", j.file.slice((n - 1) * j.partBytes, Math.min(n * j.partBytes, j.file.size)), "part");
      const answer = await post(form, c, (loaded) => progress(j, loaded));
      if (!answer.ok) {
        if ("stopped" in answer) break;
        return stopWith(answer.error);
      }
      j.done = new Set(answer.uploaded);
      progress(j, 0);
    }
    if (c.stop === "cancel") return abortOnServer(j.sourceId);
    if (c.stop === "pause") {
      setPhase("paused");
      setSpeed(null);
      setSentBytes(bytesDone(j));
      setStatus(`Upload of ${j.file.name} paused.`);
      return;
    }
    setPhase("finishing");
    setStatus(`Finishing ${j.file.name}…`);
    const complete = new FormData();
    complete.set("intent", "complete");
    complete.set("sourceId", j.sourceId);
    const finished = await post(complete, { stop: null, xhr: null }, () => {});
    if (!finished.ok) return stopWith("error" in finished ? finished.error : null);
    stopWith(null, `${j.file.name} uploaded.`);
    revalidator.revalidate();
  }

  function choose(file: File) {
    setError(null);
    if (file.size === 0) return setError(M.empty);
    if (file.size > MAX_SOURCE_BYTES) return setError(M.tooLarge);
    const j: Job = { file, sourceId: null, partBytes: SOURCE_PART_BYTES, partCount: Math.ceil(file.size / SOURCE_PART_BYTES), done: new Set() };
    job.current = j;
    setSentBytes(0);
    void run(j);
  }

  function pause() {
    control.current.stop = "pause";
    control.current.xhr?.abort();
  }

  function cancel() {
    const j = job.current;
    if (!j) return;
    if (phase === "paused") return void abortOnServer(j.sourceId);
    control.current.stop = "cancel";
    control.current.xhr?.abort();
  }

  const total = job.current?.file.size ?? 0;
  const fraction = total > 0 ? Math.min(1, sentBytes / total) : 0;
  const left = speed && total > sentBytes ? (total - sentBytes) / speed : null;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <label htmlFor="source-file" className="block text-sm font-medium text-slate-900">
        Upload a source video
      </label>
      <p id="source-file-hint" className="mt-1 text-xs text-slate-600">
        MP4, MOV or WebM, up to 5 GB. Large files go up in parts: you can pause and resume in this tab. After leaving the page, choose the same file again to
        resume: only the missing parts are sent.
      </p>
      <input
        ref={input}
        id="source-file"
        type="file"
        accept="video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm"
        aria-describedby={error ? "source-file-hint source-file-error" : "source-file-hint"}
        aria-invalid={error ? true : undefined}
        disabled={running}
        className="mt-2 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) choose(file);
        }}
      />
      {running ? (
        <div className="mt-3">
          <progress className="h-2 w-full" max={1} value={fraction} aria-label={`Upload progress of ${job.current?.file.name ?? "the video"}`} />
          <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600 tabular-nums">
            <span>
              {Math.floor(fraction * 100)}% · {formatBytes(sentBytes)} of {formatBytes(total)}
            </span>
            {phase === "uploading" ? (
              <span data-testid="upload-speed">
                {speed ? `${formatBytes(speed)}/s · about ${left === null ? "—" : formatDuration(left)} left` : "Measuring speed…"}
              </span>
            ) : null}
          </p>
          {phase === "paused" ? (
            <p className="mt-1 text-xs text-slate-700">
              Paused. Resume sends the rest from this tab. If you leave the page, choose the same file again to resume: the parts already sent are kept for 24
              hours.
            </p>
          ) : null}
          <div className="mt-2 flex flex-wrap gap-2">
            {phase === "uploading" ? (
              <Button onClick={pause}>Pause upload</Button>
            ) : phase === "paused" ? (
              <Button variant="primary" onClick={() => job.current && void run(job.current)}>
                Resume upload
              </Button>
            ) : null}
            {phase === "uploading" || phase === "paused" ? (
              <Button variant="dangerOutline" onClick={cancel}>
                Cancel upload
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
      <p role="status" className="mt-2 text-sm text-slate-700">
        {phase === "cancelling" ? "Cancelling the upload…" : status}
      </p>
      {error ? (
        <p id="source-file-error" role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
