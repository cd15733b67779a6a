import { CAPTION_MODEL } from "~/modules/thumbnails/captions";
import type { WorkersAi } from "~/platform/workers-ai.server";

// The local Workers AI stand-in (DEV_TOOLS and AI_STAND_IN=1 only): answers the caption model with
// its documented output, the Chat Completions object of @cf/zai-org/glm-4.7-flash's schema
// (https://developers.cloudflare.com/workers-ai/models/glm-4.7-flash/, read 2026-12-06:
// { id, object, created, model, choices: [{ index, message: { role, content }, finish_reason, logprobs }], usage }).
// Other models are refused as the binding refuses an unknown model. The last call is kept for tests.

export const standInAiCalls: { model: string; input: unknown }[] = [];

export const standInAi: WorkersAi = {
  async run(model, input) {
    standInAiCalls.push({ model, input });
    if (model !== CAPTION_MODEL) throw new Error(`AI stand-in: no model ${model}`);
    const content = ["Stop Scrolling Now", "You Won't Believe This", "The Secret Nobody Shares", "Watch Till The End", "This Changed Everything"].join("\n");
    return {
      id: `chatcmpl-${crypto.randomUUID()}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }],
      usage: { prompt_tokens: 42, completion_tokens: 24, total_tokens: 66 },
    };
  },
};
