import { DurableObject } from "cloudflare:workers";

// One object per limit and subject (idFromName("<bucket>|<scope>")): an exact counter for the
// limits that guard credentials and sending. A Durable Object handles one event at a time and its
// storage calls do not let another event in (input gates), so read-then-count here cannot race
// the way KV's does. See docs/decisions/0040-atomic-rate-limits.md; the sliding window, 0204.

type Window = { index: number; count: number; endsAt: number };
/** A sliding window: the times of the attempts still inside it, oldest first. */
type Log = { times: number[]; windowMs: number };

export type HitResult = { allowed: boolean; count: number; retryAfterSeconds: number };
export type RecentHitResult = HitResult & { retryAfterMs: number; at: number };

export class RateLimiter extends DurableObject<Env> {
  /** Counts one attempt in the fixed window that `now` falls in, unless the window is full. */
  async hit(maxAttempts: number, windowMs: number, now = Date.now()): Promise<HitResult> {
    const index = Math.floor(now / windowMs);
    const endsAt = (index + 1) * windowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
    const stored = await this.ctx.storage.get<Window>("window");
    const count = stored && stored.index === index ? stored.count : 0;
    if (count >= maxAttempts) return { allowed: false, count, retryAfterSeconds };
    await this.ctx.storage.put<Window>("window", { index, count: count + 1, endsAt });
    // Forget the counter once its window is over, so idle subjects cost no storage.
    if (!stored || stored.index !== index) await this.ctx.storage.setAlarm(endsAt + 1000);
    return { allowed: true, count: count + 1, retryAfterSeconds };
  }

  /** Gives back an attempt counted in the window `now` falls in (a sign-in that succeeded). */
  async release(windowMs: number, now = Date.now()): Promise<void> {
    const index = Math.floor(now / windowMs);
    const stored = await this.ctx.storage.get<Window>("window");
    if (stored && stored.index === index && stored.count > 0) {
      await this.ctx.storage.put<Window>("window", { ...stored, count: stored.count - 1 });
    }
  }

  /** The window's count without using an attempt. */
  async peek(maxAttempts: number, windowMs: number, now = Date.now()): Promise<HitResult> {
    const index = Math.floor(now / windowMs);
    const retryAfterSeconds = Math.max(1, Math.ceil(((index + 1) * windowMs - now) / 1000));
    const stored = await this.ctx.storage.get<Window>("window");
    const count = stored && stored.index === index ? stored.count : 0;
    return { allowed: count < maxAttempts, count, retryAfterSeconds };
  }

  /**
   * Counts one attempt in the sliding window ending at `now` (at most `maxAttempts` in any
   * `windowMs`, wherever the window starts: a fixed window lets twice as many through across its
   * edge). For short limits that must hold exactly, such as the chat send rate across rooms.
   */
  async hitRecent(maxAttempts: number, windowMs: number, now = Date.now()): Promise<RecentHitResult> {
    const stored = await this.ctx.storage.get<Log>("log");
    const times = (stored?.times ?? []).filter((t) => now - t < windowMs);
    if (times.length >= maxAttempts) {
      // A limit of 0 with nothing in the window: a whole window to wait.
      const retryAfterMs = Math.max(1, (times[0] ?? now) + windowMs - now);
      return { allowed: false, count: times.length, retryAfterMs, retryAfterSeconds: Math.ceil(retryAfterMs / 1000), at: now };
    }
    times.push(now);
    await this.ctx.storage.put<Log>("log", { times, windowMs });
    await this.ctx.storage.setAlarm(now + windowMs + 1000);
    return { allowed: true, count: times.length, retryAfterMs: 0, retryAfterSeconds: 0, at: now };
  }

  /** Gives back the attempt `hitRecent` counted at `at` (the attempt was refused for another reason). */
  async releaseRecent(at: number): Promise<void> {
    const stored = await this.ctx.storage.get<Log>("log");
    const i = stored?.times.indexOf(at) ?? -1;
    if (!stored || i < 0) return;
    stored.times.splice(i, 1);
    await this.ctx.storage.put<Log>("log", stored);
  }

  async alarm(): Promise<void> {
    const [stored, log] = await Promise.all([this.ctx.storage.get<Window>("window"), this.ctx.storage.get<Log>("log")]);
    const lastHit = log?.times.at(-1);
    const lastNeeded = Math.max(stored?.endsAt ?? 0, log && lastHit !== undefined ? lastHit + log.windowMs : 0);
    if (lastNeeded > Date.now()) {
      await this.ctx.storage.setAlarm(lastNeeded + 1000);
      return;
    }
    await this.ctx.storage.deleteAll();
  }
}
