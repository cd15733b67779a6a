import { DurableObject } from "cloudflare:workers";

// One object per limit and subject (idFromName("<bucket>|<scope>")): an exact counter for the
// limits that guard credentials and sending. A Durable Object handles one event at a time and its
// storage calls do not let another event in (input gates), so read-then-count here cannot race
// the way KV's does. See docs/decisions/0040-atomic-rate-limits.md.

type Window = { index: number; count: number; endsAt: number };

export type HitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

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

  async alarm(): Promise<void> {
    const stored = await this.ctx.storage.get<Window>("window");
    if (stored && stored.endsAt > Date.now()) {
      await this.ctx.storage.setAlarm(stored.endsAt + 1000);
      return;
    }
    await this.ctx.storage.deleteAll();
  }
}
