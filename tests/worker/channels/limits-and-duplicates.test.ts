// Issue 11, items 18 and 21: the channel limits answer with the spec's 'Server rate limit' toast,
// and a user has one live submission per channel (the unique index decides, also under
// concurrency), while a rejected one may be submitted again.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../factories/users";
import { count, postForm, toastOf } from "../helpers";

const RATE_LIMITED = { title: "Rate limit exceeded", description: "Please wait before trying again." };
const DUPLICATE = "You have already submitted this channel. It is listed under Your submissions.";

const submit = (user: TestUser, fields: Record<string, string>) => postForm("/channels", { intent: "submit", ...fields }, { headers: { Cookie: user.cookie } });

const rowsOf = (userId: string) => count("SELECT count(*) AS n FROM manual_channel_submissions WHERE user_id = ?", userId);

describe("channel limits say 'Rate limit exceeded' / 'Please wait before trying again.'", () => {
  it("manual submissions: the request past the limit is a 429 with the spec's toast, and writes nothing", async () => {
    const user = await createUser("creator");
    let refused: Response | null = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await submit(user, { channelName: `Limit ${i}`, channelUrl: `https://www.youtube.com/@limit${i}` });
      if (res.status === 429) refused = res;
      else expect(res.status, `submission ${i}`).toBe(302);
    }
    expect(refused, "the limit was never reached").not.toBeNull();
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThan(0);
    const html = await refused!.text();
    expect(html).toContain(RATE_LIMITED.title);
    expect(html).toContain(RATE_LIMITED.description);
    expect(html).not.toContain("Submit failed");
    const before = await rowsOf(user.id);
    const again = await postForm(
      "/channels.data",
      { intent: "submit", channelName: "One more", channelUrl: "https://www.youtube.com/@onemore" },
      { headers: { Cookie: user.cookie } },
    );
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await again.text();
    expect(body).toContain(RATE_LIMITED.title);
    expect(body).toContain(RATE_LIMITED.description);
    expect(await rowsOf(user.id)).toBe(before);
  });

  it("refresh: the press past the limit is a 429 with the spec's toast", async () => {
    const user = await createUser("creator");
    let refused: Response | null = null;
    for (let i = 0; i < 50 && !refused; i++) {
      const res = await postForm("/channels", { intent: "refresh", channelId: crypto.randomUUID() }, { headers: { Cookie: user.cookie } });
      if (res.status === 429) refused = res;
      else expect(res.status, `refresh ${i}`).toBe(404);
    }
    expect(refused, "the limit was never reached").not.toBeNull();
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThan(0);
    const html = await refused!.text();
    expect(html).toContain(RATE_LIMITED.title);
    expect(html).toContain(RATE_LIMITED.description);
    expect(html).not.toContain("Failed to refresh channel");
  });
});

describe("one live submission per user and channel", () => {
  it("refuses the same channel again, also written differently, with a clear message; other users and other channels pass", async () => {
    const user = await createUser("creator");
    const first = await submit(user, { channelName: "Dup Test", channelUrl: "https://www.youtube.com/@DupTest/", subscriberCount: "10" });
    expect(first.status).toBe(302);
    expect(await toastOf(first)).toEqual({ title: "Submitted", description: "Your channel has been submitted." });

    for (const url of ["https://www.youtube.com/@DupTest/", "youtube.com/@duptest?si=abc", "http://m.youtube.com/@DUPTEST#about"]) {
      const again = await submit(user, { channelName: "Dup Test again", channelUrl: url });
      expect(again.status, url).toBe(409);
      const html = await again.text();
      expect(html).toContain("Submit failed");
      expect(html).toContain(DUPLICATE);
    }
    expect(await rowsOf(user.id)).toBe(1);

    // Without a URL, the channel's name is what identifies it.
    expect((await submit(user, { channelName: "No Link Channel" })).status).toBe(302);
    const noLink = await submit(user, { channelName: "no link channel" });
    expect(noLink.status).toBe(409);
    expect(await noLink.text()).toContain(DUPLICATE);

    // Another channel, and another user with the same channel, are not duplicates.
    expect((await submit(user, { channelName: "Dup Test 2", channelUrl: "https://www.youtube.com/@DupTest2" })).status).toBe(302);
    const other = await createUser("creator");
    expect((await submit(other, { channelName: "Dup Test", channelUrl: "https://www.youtube.com/@DupTest" })).status).toBe(302);
    expect(await rowsOf(user.id)).toBe(3);
  });

  it("10 parallel identical submissions write one row; the others are told it is a duplicate", async () => {
    const user = await createUser("creator");
    const fields = { channelName: "Parallel", channelUrl: "https://www.youtube.com/@parallel", subscriberCount: "5", avgMonthlyViews: "50" };
    const answers = await Promise.all(Array.from({ length: 10 }, () => submit(user, fields)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    for (const r of answers.filter((a) => a.status === 409)) expect(await r.text()).toContain(DUPLICATE);
    expect(await rowsOf(user.id)).toBe(1);
  });

  it("a rejected submission may be submitted again; the rejected one then cannot go back under review beside it", async () => {
    const user = await createUser("creator");
    expect((await submit(user, { channelName: "Retry", channelUrl: "https://youtube.com/@retry" })).status).toBe(302);
    const old = await env.DB.prepare("SELECT id FROM manual_channel_submissions WHERE user_id = ?").bind(user.id).first<{ id: string }>();
    await env.DB.prepare("UPDATE manual_channel_submissions SET status = 'rejected', rejection_reason = 'Unreadable' WHERE id = ?").bind(old!.id).run();

    expect((await submit(user, { channelName: "Retry", channelUrl: "https://www.youtube.com/@retry" })).status).toBe(302);
    expect(await rowsOf(user.id)).toBe(2);

    const resend = await postForm("/channels", { intent: "submit-verification", id: old!.id }, { headers: { Cookie: user.cookie } });
    expect(resend.status).toBe(409);
    expect(await resend.text()).toContain(DUPLICATE);
    const still = await env.DB.prepare("SELECT status FROM manual_channel_submissions WHERE id = ?").bind(old!.id).first<{ status: string }>();
    expect(still?.status).toBe("rejected");
  });
});
