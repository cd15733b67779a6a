import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { standInAiCalls } from "~/dev/dev-ai.server";
import { CAPTION_MODEL, captionRequest, parseCaptions } from "~/modules/thumbnails/captions";
import { captionIdeas } from "~/modules/thumbnails/thumbnails.server";
import { actorFor } from "../../factories/actors";
import { createUser } from "../../factories/users";
import output from "../../fixtures/providers/workers-ai-glm-4.7-flash-output.json";
import { count, ORIGIN } from "../helpers";

// Issue 41: caption ideas on a current Workers AI model (docs/decisions/0311). The deprecated list is
// Cloudflare's changelog of 2026-05-08 (models removed on 2026-05-30).
const DEPRECATED_2026_05_30 = [
  "@cf/meta/llama-3.1-8b-instruct",
  "@cf/meta/llama-3.1-8b-instruct-awq",
  "@cf/meta/llama-3-8b-instruct",
  "@cf/google/gemma-3-12b-it",
];

describe("caption ideas through Workers AI", () => {
  it("use a model that is not deprecated: the recommended @cf/zai-org/glm-4.7-flash", () => {
    expect(CAPTION_MODEL).toBe("@cf/zai-org/glm-4.7-flash");
    expect(DEPRECATED_2026_05_30).not.toContain(CAPTION_MODEL);
    expect(output.model).toBe(CAPTION_MODEL);
  });

  it("read the model's documented output (choices[0].message.content), tested on the fixture", () => {
    expect(parseCaptions(output.output)).toEqual([
      "Stop Scrolling Now",
      "You Won't Believe This",
      "The Secret Nobody Shares",
      "Watch Till The End",
      "This Changed Everything",
    ]);
    // The old models' { response } shape is not this model's: it gives nothing rather than garbage.
    expect(parseCaptions({ response: "A\nB" })).toEqual([]);
  });

  it("send Chat Completions messages with reasoning off, through the binding (the local stand-in here)", async () => {
    const admin = await createUser("admin");
    const previous = (env as { AI_STAND_IN?: string }).AI_STAND_IN;
    (env as { AI_STAND_IN?: string }).AI_STAND_IN = "1";
    try {
      const request = new Request(`${ORIGIN}/ai-thumbnail-editor/api`, { method: "POST", headers: { "CF-Connecting-IP": "203.0.113.77" } });
      const captions = await captionIdeas(actorFor(admin, { isAdmin: true }), request, "My cat learns to skateboard");
      expect(captions).toHaveLength(5);
      const call = standInAiCalls.at(-1);
      expect(call?.model).toBe(CAPTION_MODEL);
      expect(call?.input).toEqual(captionRequest("My cat learns to skateboard"));
      expect(await count("SELECT count(*) AS n FROM service_status WHERE service = 'workers_ai' AND last_success_at IS NOT NULL")).toBe(1);
    } finally {
      (env as { AI_STAND_IN?: string }).AI_STAND_IN = previous;
    }
  });
});
