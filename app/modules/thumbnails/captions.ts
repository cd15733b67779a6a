// Caption ideas through Workers AI (decisions 0182, 0311). @cf/meta/llama-3.1-8b-instruct was
// deprecated on 2026-05-30 (https://developers.cloudflare.com/changelog/post/2026-05-08-planned-model-deprecations/);
// this is the first of its recommended replacements, a fast text-generation model
// (https://developers.cloudflare.com/workers-ai/models/glm-4.7-flash/, read 2026-12-06). Its input is
// Chat Completions' `messages`; its output is a Chat Completions object whose text is
// choices[0].message.content (not the old models' `response`). Reasoning is on by default: captions
// need none, so it is turned off (chat_template_kwargs.enable_thinking) and the answer kept short.

export const CAPTION_MODEL = "@cf/zai-org/glm-4.7-flash";

export function captionRequest(title: string) {
  return {
    messages: [
      {
        role: "system",
        content: "You write short, punchy YouTube thumbnail captions (at most 5 words each). Answer with 5 captions, one per line, no numbering.",
      },
      { role: "user", content: title },
    ],
    max_completion_tokens: 200,
    chat_template_kwargs: { enable_thinking: false },
  };
}

/** The model's text: choices[0].message.content, or "" for any other shape. */
export function captionText(output: unknown): string {
  const choices = (output as { choices?: unknown })?.choices;
  const first = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined) : undefined;
  const content = first?.message?.content;
  return typeof content === "string" ? content : "";
}

/** Up to 5 captions, one per line, without list markers. */
export function parseCaptions(output: unknown): string[] {
  return captionText(output)
    .split("\n")
    .map((l) => l.replace(/^[\s\-*\d.]+/, "").trim())
    .filter(Boolean)
    .slice(0, 5);
}
