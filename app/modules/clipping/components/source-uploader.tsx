import { useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { CLIPPING_MESSAGES as M, MAX_SOURCE_BYTES, SOURCE_PART_BYTES } from "../messages";

// The creator's source upload: the file goes to /clipping/upload in equal parts (the first with
// 'start'), each retried after a dropped connection; choosing the same file again resumes an upload
// left unfinished (the server answers with the parts it has). Progress is shown as a bar.

type UploadAnswer = { ok: true; sourceId: string; partBytes: number; partCount: number; uploaded: number[] } | { ok: false; error: string };

async function post(form: FormData): Promise<UploadAnswer> {
  let lastError = "The connection dropped. Choose the file again to resume.";
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const res = await fetch("/clipping/upload", { method: "POST", body: form, credentials: "same-origin" });
      const body = (await res.json().catch(() => null)) as (UploadAnswer & { error?: string }) | null;
      if (res.ok && body?.ok) return body;
      if (res.status < 500 && body) return { ok: false, error: body.error ?? "The upload failed." };
      lastError = body?.error ?? "The upload failed.";
    } catch {
      // A dropped connection: wait, then send the same part again.
    }
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
  return { ok: false, error: lastError };
}

export function SourceUploader() {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string>("");
  const revalidator = useRevalidator();

  async function upload(file: File) {
    setError(null);
    if (file.size === 0) return setError(M.empty);
    if (file.size > MAX_SOURCE_BYTES) return setError(M.tooLarge);
    setProgress(0);
    setStatus(`Uploading ${file.name}`);
    const start = new FormData();
    start.set("intent", "start");
    start.set("name", file.name);
    start.set("size", String(file.size));
    start.set("chunk", file.slice(0, Math.min(SOURCE_PART_BYTES, file.size)), "part");
    const started = await post(start);
    if (!started.ok) {
      setProgress(null);
      setStatus("");
      return setError(started.error);
    }
    const { sourceId, partBytes, partCount } = started;
    const done = new Set(started.uploaded);
    setProgress(done.size / partCount);
    for (let n = 1; n <= partCount; n++) {
      if (done.has(n)) continue;
      const form = new FormData();
      form.set("intent", "part");
      form.set("sourceId", sourceId);
      form.set("partNumber", String(n));
      form.set("chunk", file.slice((n - 1) * partBytes, Math.min(n * partBytes, file.size)), "part");
      const answer = await post(form);
      if (!answer.ok) {
        setProgress(null);
        setStatus("");
        return setError(answer.error);
      }
      done.add(n);
      setProgress(done.size / partCount);
    }
    const complete = new FormData();
    complete.set("intent", "complete");
    complete.set("sourceId", sourceId);
    const finished = await post(complete);
    setProgress(null);
    if (!finished.ok) {
      setStatus("");
      return setError(finished.error);
    }
    setStatus(`${file.name} uploaded.`);
    if (input.current) input.current.value = "";
    revalidator.revalidate();
  }

  const busy = progress !== null;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <label htmlFor="source-file" className="block text-sm font-medium text-slate-900">
        Upload a source video
      </label>
      <p id="source-file-hint" className="mt-1 text-xs text-slate-600">
        MP4, MOV or WebM, up to 5 GB. Large files go up in parts; choose the same file again to resume an interrupted upload.
      </p>
      <input
        ref={input}
        id="source-file"
        type="file"
        accept="video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm"
        aria-describedby={error ? "source-file-hint source-file-error" : "source-file-hint"}
        aria-invalid={error ? true : undefined}
        disabled={busy}
        className="mt-2 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void upload(file);
        }}
      />
      {busy ? (
        <div className="mt-3">
          <progress className="h-2 w-full" max={1} value={progress ?? 0} aria-label="Upload progress" />
          <p className="mt-1 text-xs text-slate-600">{Math.round((progress ?? 0) * 100)}%</p>
        </div>
      ) : null}
      <p role="status" className="mt-2 text-sm text-slate-700">
        {status}
      </p>
      {error ? (
        <p id="source-file-error" role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
