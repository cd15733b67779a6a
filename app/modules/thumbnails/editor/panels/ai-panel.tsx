import { type Dispatch, useState } from "react";
import { Button } from "~/ui/button";
import { inputClass } from "~/ui/field";
import { toast } from "~/ui/toaster";
import { autoCrop, type ImageLayer, maskBounds, type ThumbnailDocument } from "../../layers";
import { foundSubject } from "../../mask";
import { THUMBNAIL_MESSAGES } from "../../messages";
import type { AiStatus } from "../../types";
import { API, imageFromApi, readJson, type RunTask } from "../api";
import { type EditorAction, newId } from "../document";
import { keepEditorOffline } from "../offline.client";
import { type Asset, cutOut, FONT_URLS } from "../render";
import { SEGMENTER_FILES, segment } from "../segmenter.client";
import { ColourInput } from "./inputs";

// AI: background removal and the subject crop run in this browser (the segmentation model in a Web
// Worker, decision 0181); caption ideas and generated backgrounds need the server's Workers AI
// (disabled with the reason when it is not bound). Also the document's background colour.

type Props = {
  ai: AiStatus;
  doc: ThumbnailDocument;
  assets: ReadonlyMap<string, Asset>;
  /** The image the model works on: the selected one, else the top visible image. */
  targetImage: ImageLayer | undefined;
  dispatch: Dispatch<EditorAction>;
  busy: string | null;
  run: RunTask;
  setError: (message: string | null) => void;
  setProgress: (message: string | null) => void;
  onAddText: (text: string) => void;
  onImage: (image: Blob) => Promise<void>;
};

export function AiPanel({ ai, doc, assets, targetImage, dispatch, busy, run, setError, setProgress, onAddText, onImage }: Props) {
  const [videoTitle, setVideoTitle] = useState("");
  const [bgPrompt, setBgPrompt] = useState("");
  const [captions, setCaptions] = useState<string[]>([]);

  async function runSegmentation(layer: ImageLayer) {
    const asset = assets.get(layer.assetId);
    if (!asset) throw new Error("The image is not loaded yet.");
    const bitmap = await createImageBitmap(asset.image);
    const t0 = performance.now();
    const result = await segment(bitmap, (stage, percent) => setProgress(stage === "loading" ? `Loading the model… ${percent}%` : "Finding the subject…"));
    // The model has been used here: from now on it is kept for offline use (decision 0251).
    keepEditorOffline(FONT_URLS, SEGMENTER_FILES, true).catch(() => {});
    return { result, asset, ms: Math.round(performance.now() - t0) };
  }

  function removeBackground() {
    if (!targetImage) return;
    return run(
      "ai",
      async () => {
        const { result, asset, ms } = await runSegmentation(targetImage);
        // No subject (a landscape, an empty room): the photo stays as it was, and the editor says so
        // instead of erasing nearly everything and reporting success (issue 42 §2).
        if (!foundSubject(result.mask)) {
          setError(THUMBNAIL_MESSAGES.noSubject);
          return;
        }
        setProgress("Cutting out…");
        const cut = await cutOut(asset.image, asset.width, asset.height, result.mask, result.width, result.height);
        dispatch({ type: "replace-image", layerId: targetImage.id, assetId: newId(), asset: cut, name: "Cut-out" });
        toast.success("Background removed", { description: `Model ${result.runMs} ms (loading ${result.loadMs} ms), ${ms} ms in all.` });
        document.documentElement.dataset.segmentMs = String(result.runMs);
      },
      (message) => setError(`Background removal failed: ${message}`),
    );
  }

  function subjectCrop() {
    if (!targetImage) return;
    return run(
      "ai",
      async () => {
        const { result, asset } = await runSegmentation(targetImage);
        const box = maskBounds(result.mask, result.width, result.height, 0.5);
        if (!box) {
          setError(THUMBNAIL_MESSAGES.noSubject);
          return;
        }
        const sx = asset.width / result.width;
        const sy = asset.height / result.height;
        const subject = { left: box.left * sx, top: box.top * sy, right: box.right * sx, bottom: box.bottom * sy };
        dispatch({ type: "update-layer", id: targetImage.id, patch: autoCrop(targetImage, asset, subject, doc.format) });
        toast.success("Cropped to the subject");
      },
      (message) => setError(`Auto-crop failed: ${message}`),
    );
  }

  function captionIdeas() {
    return run("ai", async () => {
      const form = new FormData();
      form.set("intent", "caption-ideas");
      form.set("title", videoTitle);
      const res = await fetch(API, { method: "POST", body: form });
      const body = await readJson(res);
      if (!res.ok || !body.ok) throw new Error(body.error ?? "No caption ideas.");
      setCaptions(body.captions as string[]);
    });
  }

  function generateBackground() {
    return run("ai", async () => {
      const form = new FormData();
      form.set("intent", "generate-background");
      form.set("prompt", bgPrompt);
      await onImage(await imageFromApi(form, "No background was generated."));
    });
  }

  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">AI (runs in this browser)</h2>
      <p className="mt-1 text-xs text-slate-600">{THUMBNAIL_MESSAGES.modelDownload}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button onClick={removeBackground} disabled={!targetImage || busy !== null}>
          Remove background
        </Button>
        <Button onClick={subjectCrop} disabled={!targetImage || busy !== null}>
          Auto-crop to subject
        </Button>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <ColourInput
          label="Background colour"
          value={doc.background === "transparent" ? "#ffffff" : doc.background}
          onChange={(v) => dispatch({ type: "set-background", background: v })}
        />
        <Button onClick={() => dispatch({ type: "set-background", background: "transparent" })} disabled={doc.background === "transparent"}>
          Transparent
        </Button>
      </div>
      <h3 className="mt-3 text-xs font-semibold uppercase text-slate-600">Needs a server</h3>
      {ai.available ? (
        <label className="mt-1 block text-sm text-slate-700">
          Video title
          <input className={inputClass} value={videoTitle} maxLength={200} onChange={(e) => setVideoTitle(e.target.value)} />
        </label>
      ) : null}
      {ai.available ? (
        <label className="mt-1 block text-sm text-slate-700">
          Background description
          <input className={inputClass} value={bgPrompt} maxLength={300} onChange={(e) => setBgPrompt(e.target.value)} />
        </label>
      ) : null}
      <div className="mt-1 flex flex-wrap gap-2">
        <Button disabled={!ai.available || !videoTitle.trim() || busy !== null} aria-describedby="ai-server-reason" onClick={captionIdeas}>
          Caption ideas
        </Button>
        <Button disabled={!ai.available || !bgPrompt.trim() || busy !== null} aria-describedby="ai-server-reason" onClick={generateBackground}>
          Generate background
        </Button>
      </div>
      {!ai.available ? (
        <p id="ai-server-reason" className="mt-1 text-xs text-slate-700">
          {ai.reason}
        </p>
      ) : null}
      {captions.length ? (
        <ul className="mt-2 space-y-1" aria-label="Caption ideas">
          {captions.map((c) => (
            <li key={c}>
              <Button onClick={() => onAddText(c)}>Add “{c}”</Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
