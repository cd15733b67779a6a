import { DomainError, rateLimited } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { env } from "~/platform/env.server";
import { consume, logRateLimitHit, THUMBNAIL_AI_LIMITS } from "~/platform/rate-limit.server";
import { recordFailure, recordSuccess } from "~/platform/service-status.server";
import { workersAi, workersAiBound } from "~/platform/workers-ai.server";
import { CAPTION_MODEL, captionRequest, parseCaptions } from "./captions";
import { imageKindOf, imageProblem, THUMBNAIL_MESSAGES } from "./messages";
import type { AiStatus } from "./types";

// The thumbnail editor's server-side AI helpers through Workers AI (docs/decisions/0182, 0184,
// 0187, 0311): whether they can run, the per-admin hourly limits, caption ideas and backgrounds.

/** Whether the server-side AI helpers (Workers AI) can run here. */
export function aiStatus(): AiStatus {
  return workersAiBound() ? { available: true, reason: null } : { available: false, reason: THUMBNAIL_MESSAGES.aiUnavailable };
}

/**
 * Spends one of the admin's server-AI calls of this kind (THUMBNAIL_AI_LIMITS, counted exactly in
 * the RateLimiter object, decision 0187); past the hour's limit: audited, 429 with the spec's server
 * rate-limit message. Called only once the model is known to be bound, right before it runs.
 */
export async function spendAiCall(actor: Actor, request: Request, kind: keyof typeof THUMBNAIL_AI_LIMITS): Promise<void> {
  const bucket = `thumbnail-ai:${kind}`;
  const limit = await consume(bucket, `user:${actor.id}`, THUMBNAIL_AI_LIMITS[kind]);
  if (limit.allowed) return;
  await logRateLimitHit(request, bucket, actor.id);
  throw rateLimited(limit.retryAfterSeconds);
}

/** Caption ideas from a video title, through Workers AI where bound (docs/decisions/0182, 0311). */
export async function captionIdeas(actor: Actor, request: Request, title: string): Promise<string[]> {
  authorize(actor, "thumbnail", "use");
  const ai = await workersAi();
  if (!ai) throw new DomainError("unavailable", THUMBNAIL_MESSAGES.aiUnavailable, { title: "AI not available" });
  await spendAiCall(actor, request, "captions");
  let answer: unknown;
  try {
    answer = await ai.run(CAPTION_MODEL, captionRequest(title));
  } catch (error) {
    await recordFailure("workers_ai", null, error instanceof Error ? error.message : String(error));
    throw error;
  }
  await recordSuccess("workers_ai");
  return parseCaptions(answer);
}
// ---- Background generation (decision 0184) ---------------------------------------------------------

export const BACKGROUND_MODEL = "@cf/black-forest-labs/flux-1-schnell";

/** A background image from a prompt, through Workers AI where bound (503 with the reason otherwise). */
export async function generateBackground(actor: Actor, request: Request, prompt: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string }> {
  authorize(actor, "thumbnail", "use");
  const ai = env.AI;
  if (!ai) throw new DomainError("unavailable", THUMBNAIL_MESSAGES.aiUnavailable, { title: "AI not available" });
  await spendAiCall(actor, request, "backgrounds");
  const answer = await ai.run(BACKGROUND_MODEL, { prompt: `${prompt}. Wide background for a video thumbnail, no text.`, steps: 4 });
  // flux-1-schnell answers { image: base64 JPEG } (https://developers.cloudflare.com/workers-ai/models/flux-1-schnell/).
  const image = answer && typeof answer === "object" && "image" in answer && typeof answer.image === "string" ? answer.image : "";
  const bytes = image ? Uint8Array.from(atob(image), (c) => c.charCodeAt(0)) : new Uint8Array();
  const problem = imageProblem(bytes.byteLength, bytes.subarray(0, 512 * 1024));
  if (problem) throw new DomainError("unavailable", THUMBNAIL_MESSAGES.generateFailed, { title: "No background" });
  return { bytes, type: imageKindOf(bytes) as string };
}
