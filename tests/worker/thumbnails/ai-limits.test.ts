import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "~/lib/errors";
import { THUMBNAIL_MESSAGES } from "~/modules/thumbnails/messages";
import { spendAiCall } from "~/modules/thumbnails/thumbnails.server";
import { peek, THUMBNAIL_AI_LIMITS } from "~/platform/rate-limit.server";
import { actorFor } from "../../factories/actors";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, withCookie } from "../helpers";

const API = "/ai-thumbnail-editor/api";
const request = new Request(`${ORIGIN}${API}`, { method: "POST", headers: { "CF-Connecting-IP": "203.0.113.19" } });

let admins: [TestUser, TestUser, TestUser, TestUser];

beforeAll(async () => {
  admins = await Promise.all([createUser("admin"), createUser("admin"), createUser("admin"), createUser("admin")]);
  await fetchApp("/auth");
}, 180_000);

function post(user: TestUser, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return fetchApp(API, withCookie(user.cookie, { method: "POST", body: form, headers: { Origin: ORIGIN } }));
}

const rateLimitHits = (userId: string, bucket: string) =>
  count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'RATE_LIMIT_EXCEEDED' AND user_id = ? AND details LIKE ?", userId, `%${bucket}%`);

describe("server AI limits per admin", () => {
  it("the guard lets exactly 30 of 45 parallel caption calls through and audits the refusals; backgrounds count apart, 10 per hour", async () => {
    const actor = actorFor(admins[0], { isAdmin: true });
    const settled = await Promise.allSettled(Array.from({ length: 45 }, () => spendAiCall(actor, request, "captions")));
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(THUMBNAIL_AI_LIMITS.captions.maxAttempts);
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected").map((s) => s.reason);
    expect(refused).toHaveLength(15);
    for (const e of refused) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe("rate_limited");
      expect((e as DomainError).message).toBe("Please wait before trying again.");
    }
    expect(await rateLimitHits(admins[0].id, "thumbnail-ai:captions")).toBe(15);

    // Another kind and another admin have their own counts.
    const backgrounds = await Promise.allSettled(Array.from({ length: 14 }, () => spendAiCall(actor, request, "backgrounds")));
    expect(backgrounds.filter((s) => s.status === "fulfilled")).toHaveLength(10);
    await expect(spendAiCall(actorFor(admins[1], { isAdmin: true }), request, "captions")).resolves.toBeUndefined();
  });

  it("without a binding the reason still answers (503) even past the limit, and unbound calls spend nothing", async () => {
    const exhausted = admins[0];
    for (const [intent, field] of [
      ["caption-ideas", "title"],
      ["generate-background", "prompt"],
    ] as const) {
      const res = await post(exhausted, { intent, [field]: "I tried the spiciest noodles" });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toBe(THUMBNAIL_MESSAGES.aiUnavailable);
    }
    const fresh = admins[2];
    await Promise.all(Array.from({ length: 5 }, () => post(fresh, { intent: "generate-background", prompt: "neon city" })));
    expect((await peek("thumbnail-ai:backgrounds", `user:${fresh.id}`, THUMBNAIL_AI_LIMITS.backgrounds)).count).toBe(0);
  });
});
