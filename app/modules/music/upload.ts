import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream, UNSAFE_SingleFetchRedirectSymbol as REDIRECT } from "react-router";
import { type ActionFailure, isActionFailure } from "~/lib/errors";

// The submit form's upload with a progress bar: fetch() reports no upload progress, so the form
// is posted with XMLHttpRequest (upload.onprogress) to the route's own action, as the single-fetch
// request React Router's <Form> would send (`<path>.data`), and the answer is decoded the same way.
// Without JavaScript the plain form posts to the same action. Client only. docs/decisions/0110.

export type UploadOutcome = { kind: "redirect"; to: string } | { kind: "failure"; failure: ActionFailure } | { kind: "error"; message: string; status: number };

export type UploadHandle = { done: Promise<UploadOutcome>; abort: () => void };

/** The single-fetch address of a route path: "/music/submit" → "/music/submit.data". */
export function dataUrl(path: string): string {
  const url = new URL(path, window.location.origin);
  url.pathname = `${url.pathname.replace(/\/$/, "") || "/_root"}.data`;
  return url.pathname + url.search;
}

const NETWORK = "The upload was interrupted. Please check your connection and try again.";

/** Posts `form` to the action at `path`, reporting progress 0..1 of the bytes sent. */
export function uploadForm(path: string, form: FormData, onProgress: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadOutcome>((resolve) => {
    xhr.open("POST", dataUrl(path));
    xhr.responseType = "arraybuffer";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onerror = () => resolve({ kind: "error", message: NETWORK, status: 0 });
    xhr.onabort = () => resolve({ kind: "error", message: "The upload was cancelled.", status: 0 });
    xhr.onload = () => {
      const redirect = xhr.getResponseHeader("X-Remix-Redirect");
      if (redirect) resolve({ kind: "redirect", to: redirect });
      else void decodeAnswer(xhr.response as ArrayBuffer, xhr.status).then(resolve);
    };
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** The action's answer: a redirect (success), an ActionFailure (field errors), or an error. */
async function decodeAnswer(body: ArrayBuffer, status: number): Promise<UploadOutcome> {
  const fallback: UploadOutcome = {
    kind: "error",
    message: status === 413 ? "The upload is too large." : "Something went wrong while sending the track. Please try again.",
    status,
  };
  try {
    const stream = new Response(body).body;
    if (!stream) return fallback;
    const decoded = await decodeViaTurboStream(stream, window);
    const value = decoded.value as Record<string | symbol, unknown> | null;
    if (!value || typeof value !== "object") return fallback;
    // A mutation's redirect is the top-level { redirect, status, … } (older encodings wrap it in a symbol).
    if (typeof value.redirect === "string") return { kind: "redirect", to: value.redirect };
    const wrapped = value[REDIRECT] as { redirect?: string } | undefined;
    if (wrapped?.redirect) return { kind: "redirect", to: wrapped.redirect };
    const data = value.data;
    if (isActionFailure(data)) return { kind: "failure", failure: data };
    return fallback;
  } catch {
    return fallback;
  }
}
