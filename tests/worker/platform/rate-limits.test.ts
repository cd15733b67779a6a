import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consume, isAtomicBucket, peek } from "~/platform/rate-limit.server";
import { postForm } from "../helpers";

// The limits that guard credentials and sending are exact under concurrency (issue 11, item 2):
// read-then-count in KV let 30 parallel sign-ins through a limit of 5.

const FIVE_PER_15_MIN = { maxAttempts: 5, windowMs: 15 * 60_000 };

describe("atomic limits", () => {
  it("counts 30 parallel attempts exactly: 5 allowed, the 6th and later refused", async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => consume("signin", "acct:parallel", FIVE_PER_15_MIN)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.filter((r) => !r.allowed)).toHaveLength(25);
    expect(results.every((r) => r.retryAfterSeconds >= 1)).toBe(true);
    expect((await peek("signin", "acct:parallel", FIVE_PER_15_MIN)).count).toBe(5);
  });

  it("starts a fresh window when the old one is over, and keeps subjects apart", async () => {
    const t0 = Date.UTC(2026, 0, 1, 0, 0, 0);
    for (let i = 0; i < 5; i++) expect((await consume("signup", "ip:198.51.100.7", FIVE_PER_15_MIN, t0 + i)).allowed).toBe(true);
    expect((await consume("signup", "ip:198.51.100.7", FIVE_PER_15_MIN, t0 + 10)).allowed).toBe(false);
    expect((await consume("signup", "ip:198.51.100.8", FIVE_PER_15_MIN, t0 + 10)).allowed).toBe(true);
    expect((await consume("signup", "ip:198.51.100.7", FIVE_PER_15_MIN, t0 + 15 * 60_000)).allowed).toBe(true);
  });

  it("sends credential and sending limits to the exact store, coarse ones to KV", async () => {
    // Every limit on a password, a code, an export, sending or a submission (docs/decisions/0291).
    for (const bucket of [
      "signin",
      "signup",
      "reset:ip",
      "reset:acct",
      "verify-resend",
      "change-password",
      "delete-account",
      "admin-recovery",
      "licence-lookup",
      "data-export",
      "phone-code:user",
      "agency-manager",
      "clipper-invite:to",
      "channel-submit",
      "music-submit",
      "campaign-submit",
      "thumbnail-ai:captions",
      "suspicious:signin",
    ]) {
      expect(isAtomicBucket(bucket), bucket).toBe(true);
    }
    expect(isAtomicBucket("channel-refresh")).toBe(false);
    await consume("channel-refresh", "user:kv-check", FIVE_PER_15_MIN);
    const keys = await env.RATE_LIMITS.list({ prefix: "rl:channel-refresh:user:kv-check:" });
    expect(keys.keys).toHaveLength(1);
  });

  it("refuses the 6th of 30 parallel sign-ins for one account, from 30 different addresses", async () => {
    const email = `victim-${crypto.randomUUID()}@example.com`;
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postForm("/auth", { intent: "signin", email, password: "Wrong#Password1" }, { headers: { "CF-Connecting-IP": `203.0.113.${i + 1}` } }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
