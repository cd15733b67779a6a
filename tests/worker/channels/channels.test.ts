import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { runDailyChannelRefresh } from "~/modules/channels/channels.server";
import { connectedChannelCountQuery } from "~/modules/channels/channels.server";
import { handleDevOAuthApi } from "~/dev/dev-oauth.server";
import { decryptToken } from "~/platform/token-crypto.server";
import worker from "../../../workers/app";
import { createUser, type TestUser } from "../../factories/users";
import { ORIGIN, count, fetchApp, okText, postForm, toastOf } from "../helpers";
import { present } from "../../helpers/present";

/** The count the dashboard shows under Connected Channels. */
const connectedCount = async (userId: string) => (await connectedChannelCountQuery(userId).all())[0]?.n ?? 0;

// ---------------------------------------------------------------------------------------------
// Helpers: drive the OAuth flow exactly as a browser does, against the stand-in provider.
// ---------------------------------------------------------------------------------------------

const FLOW_COOKIE = "__Host-sb_youtube_oauth";

function cookiePair(res: Response, name: string): string | null {
  const c = res.headers.getSetCookie().find((v) => v.startsWith(`${name}=`));
  return c ? present(c.split(";")[0], `the pair in ${c}`) : null;
}

type Pick = { account: string } | { email: string; name?: string };

/** POST intent=connect → the stand-in's picker → back to /channels?code&state. */
async function beginLink(user: TestUser, pick: Pick) {
  const start = await postForm("/channels", { intent: "connect" }, { headers: { Cookie: user.cookie } });
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get("Location")!);
  const flowCookie = cookiePair(start, FLOW_COOKIE)!;
  expect(flowCookie).toBeTruthy();
  const picked = await postForm(authorizeUrl.pathname + authorizeUrl.search, pick as Record<string, string>);
  expect(picked.status).toBe(302);
  const callback = new URL(picked.headers.get("Location")!);
  return { start, authorizeUrl, flowCookie, callback };
}

async function returnTo(user: TestUser, callback: URL | string, flowCookie: string | null) {
  const url = typeof callback === "string" ? callback : callback.pathname + callback.search;
  const res = await fetchApp(url, { headers: { Cookie: [user.cookie, flowCookie].filter(Boolean).join("; ") } });
  return { res, toast: await toastOf(res) };
}

async function link(user: TestUser, pick: Pick) {
  const flow = await beginLink(user, pick);
  const done = await returnTo(user, flow.callback, flow.flowCookie);
  expect(done.res.status).toBe(302);
  expect(done.res.headers.get("Location")).toBe("/channels");
  return { ...flow, ...done };
}

async function channelOf(userId: string) {
  return env.DB.prepare("SELECT * FROM youtube_channels WHERE user_id = ? ORDER BY created_at DESC").bind(userId).first<Record<string, any>>();
}

async function tokensOf(rowId: string) {
  const t = await env.DB.prepare("SELECT * FROM youtube_channel_tokens WHERE channel_row_id = ?").bind(rowId).first<Record<string, any>>();
  return {
    row: t,
    access: t ? await decryptToken(t.access_token_enc, `access:${rowId}`) : null,
    refresh: t?.refresh_token_enc ? await decryptToken(t.refresh_token_enc, `refresh:${rowId}`) : null,
  };
}

function standIn(path: string, body?: Record<string, string>, headers: Record<string, string> = {}) {
  return handleDevOAuthApi(new Request(`${ORIGIN}/dev/oauth/${path}`, body ? { method: "POST", body: new URLSearchParams(body), headers } : { headers }));
}

async function revokeGrant(rowId: string) {
  const { refresh } = await tokensOf(rowId);
  await standIn("revoke", { token: refresh! });
  // And make the stored access token stale, so the next refresh must use the (revoked) grant.
  await env.DB.prepare("UPDATE youtube_channel_tokens SET access_token_expires_at = '2000-01-01T00:00:00.000Z' WHERE channel_row_id = ?").bind(rowId).run();
}

const today = () => new Date().toISOString().slice(0, 10);
let seq = 0;
const uniqueEmail = (tag: string) => `${tag}${++seq}${crypto.randomUUID().slice(0, 4)}@example.com`;

// ---------------------------------------------------------------------------------------------

describe("/channels guards", () => {
  it("sends anonymous users to sign-in and unapproved users to the pending page", async () => {
    const anon = await fetchApp("/channels");
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth/);
    const pending = await createUser("pending");
    const res = await fetchApp("/channels", { headers: { Cookie: pending.cookie } });
    expect(res.headers.get("Location")).toBe("/pending-approval");
    const post = await postForm("/channels", { intent: "connect" }, { headers: { Cookie: pending.cookie } });
    expect(post.headers.get("Location")).toBe("/pending-approval");
  });

  it("shows the page with both sections to an approved creator", async () => {
    const user = await createUser("creator");
    const html = await okText(fetchApp("/channels", { headers: { Cookie: user.cookie } }));
    expect(html).toContain("Connect YouTube channel");
    expect(html).toContain("Manual submissions");
  });
});

describe("linking a YouTube channel (OAuth code + PKCE + state, stand-in provider)", () => {
  it("asks for youtube.readonly offline access with PKCE S256 and a state in an HttpOnly, SameSite=Lax cookie", async () => {
    const user = await createUser("creator");
    const start = await postForm("/channels", { intent: "connect" }, { headers: { Cookie: user.cookie } });
    expect(start.status).toBe(302);
    const url = new URL(start.headers.get("Location")!);
    expect(url.pathname).toBe("/dev/oauth/authorize");
    expect(url.searchParams.get("scope")).toBe("https://www.googleapis.com/auth/youtube.readonly");
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("prompt")).toBe("consent");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")!.length).toBeGreaterThanOrEqual(22);
    expect(url.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/channels`);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith(`${FLOW_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i);
  });

  it("links the channel, clears the query with the success toast, stores a snapshot and starts the term", async () => {
    const user = await createUser("creator");
    const before = await env.DB.prepare("SELECT term_started_at FROM profiles WHERE user_id = ?").bind(user.id).first<{ term_started_at: string | null }>();
    expect(before?.term_started_at).toBeNull();

    const { toast, res } = await link(user, { account: "google-sam-0001" });
    expect(toast).toEqual({ title: "Channel connected!", description: "Successfully connected Sam's Shorts" });
    // The flow cookie is cleared.
    expect(res.headers.getSetCookie().find((c) => c.startsWith(`${FLOW_COOKIE}=`))).toMatch(/Max-Age=0/);

    const channel = await channelOf(user.id);
    expect(channel).toMatchObject({
      channel_id: "UCstandinSamShorts00001",
      channel_title: "Sam's Shorts",
      channel_handle: "@samshorts",
      subscriber_count: 12800,
      view_count: 2450000,
      video_count: 148,
    });
    expect(channel!.last_synced_at).toBeTruthy();
    const snap = await env.DB.prepare("SELECT day, subscriber_count FROM channel_snapshots WHERE channel_row_id = ?").bind(channel!.id).all();
    expect(snap.results).toEqual([{ day: today(), subscriber_count: 12800 }]);
    const after = await env.DB.prepare("SELECT term_started_at FROM profiles WHERE user_id = ?").bind(user.id).first<{ term_started_at: string | null }>();
    expect(after?.term_started_at).toBeTruthy();

    // The page lists it and the dashboard counts it.
    const page = await fetchApp("/channels", { headers: { Cookie: user.cookie } });
    expect(await page.text()).toContain("Sam&#x27;s Shorts");
    expect(await connectedCount(user.id)).toBe(1);

    // A second link later does not move the term's start.
    await link(user, { email: uniqueEmail("second") });
    const later = await env.DB.prepare("SELECT term_started_at FROM profiles WHERE user_id = ?").bind(user.id).first<{ term_started_at: string | null }>();
    expect(later?.term_started_at).toBe(after?.term_started_at);
  });

  it("stores the provider tokens encrypted: the raw tokens are nowhere in D1", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("crypt") });
    const channel = await channelOf(user.id);
    const { row, access, refresh } = await tokensOf(channel!.id);
    expect(access).toBeTruthy();
    expect(refresh).toBeTruthy();
    expect(row!.access_token_enc).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    // They are the real tokens: the stand-in accepts the decrypted access token.
    const api = await standIn("youtube/channels", undefined, { Authorization: `Bearer ${access}` });
    expect(api.status).toBe(200);

    const { results: tables } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    ).all<{ name: string }>();
    for (const { name } of tables) {
      const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      const dump = JSON.stringify(results);
      expect(dump, `raw access token found in ${name}`).not.toContain(access!);
      expect(dump, `raw refresh token found in ${name}`).not.toContain(refresh!);
    }
    // A ciphertext moved to another row does not decrypt (the row id is bound in).
    await expect(decryptToken(row!.access_token_enc, "access:another-row")).rejects.toThrow();
  });

  it("refuses a mismatched or missing state, and a tampered flow cookie", async () => {
    const user = await createUser("creator");
    const flow = await beginLink(user, { email: uniqueEmail("state") });

    const tampered = new URL(flow.callback);
    tampered.searchParams.set("state", "attacker-chosen-state");
    const mismatch = await returnTo(user, tampered, flow.flowCookie);
    expect(mismatch.res.headers.get("Location")).toBe("/channels");
    expect(mismatch.toast?.title).toBe("Failed to connect channel");
    expect(mismatch.toast?.description).toMatch(/expired or did not match/);

    const flow2 = await beginLink(user, { email: uniqueEmail("state") });
    const missing = await returnTo(user, flow2.callback, null);
    expect(missing.toast?.title).toBe("Failed to connect channel");

    const flow3 = await beginLink(user, { email: uniqueEmail("state") });
    // Flip a character of the signed payload (not the signature's last base64 character, whose
    // spare bits may decode to the same bytes).
    const at = flow3.flowCookie.indexOf("=") + 6;
    const forged = flow3.flowCookie.slice(0, at) + (flow3.flowCookie[at] === "A" ? "B" : "A") + flow3.flowCookie.slice(at + 1);
    const bad = await returnTo(user, flow3.callback, forged);
    expect(bad.toast?.title).toBe("Failed to connect channel");

    expect(await channelOf(user.id)).toBeNull();
  });

  it("refuses the code with a wrong PKCE verifier, and exchanges a code once only", async () => {
    const user = await createUser("creator");
    // At the provider: a code presented with the wrong verifier is refused (and burnt).
    const flow = await beginLink(user, { email: uniqueEmail("pkce") });
    const code = flow.callback.searchParams.get("code")!;
    const wrong = await standIn("token", {
      grant_type: "authorization_code",
      code,
      code_verifier: "a-wrong-verifier-that-does-not-hash-to-the-challenge-0000000",
      redirect_uri: `${ORIGIN}/channels`,
      client_id: "shortbeat-local",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant", error_description: "PKCE verification failed." });
    // The app, returning with that burnt code, fails and links nothing.
    const after = await returnTo(user, flow.callback, flow.flowCookie);
    expect(after.toast).toEqual({ title: "Failed to connect channel", description: "Invalid or used authorization code." });
    expect(await channelOf(user.id)).toBeNull();

    // A good exchange, then a replay of the same return address with the same cookie.
    const ok = await link(user, { email: uniqueEmail("once") });
    expect(ok.toast?.title).toBe("Channel connected!");
    const replay = await returnTo(user, ok.callback, ok.flowCookie);
    expect(replay.toast).toEqual({ title: "Failed to connect channel", description: "Invalid or used authorization code." });
    expect(await count("SELECT count(*) AS n FROM youtube_channels WHERE user_id = ?", user.id)).toBe(1);
  });

  it("shows 'Authorization failed' when the provider returns an error, and clears the query", async () => {
    const user = await createUser("creator");
    const start = await postForm("/channels", { intent: "connect" }, { headers: { Cookie: user.cookie } });
    const authorize = new URL(start.headers.get("Location")!);
    const cancelled = await postForm(authorize.pathname + authorize.search, { intent: "cancel" });
    const callback = new URL(cancelled.headers.get("Location")!);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    const done = await returnTo(user, callback, cookiePair(start, FLOW_COOKIE));
    expect(done.res.headers.get("Location")).toBe("/channels");
    expect(done.toast).toEqual({ title: "Authorization failed", description: "YouTube authorization was cancelled or failed" });
  });

  it("refuses a flow started by another account", async () => {
    const alice = await createUser("creator");
    const mallory = await createUser("creator");
    const flow = await beginLink(mallory, { email: uniqueEmail("swap") });
    // Alice is tricked into opening Mallory's return address with Mallory's flow cookie.
    const done = await returnTo(alice, flow.callback, flow.flowCookie);
    expect(done.toast?.title).toBe("Failed to connect channel");
    expect(await channelOf(alice.id)).toBeNull();
    expect(await channelOf(mallory.id)).toBeNull();
  });

  it("never links one channel to two users", async () => {
    const first = await createUser("creator");
    const second = await createUser("creator");
    const email = uniqueEmail("shared");
    await link(first, { email, name: "Shared" });
    const again = await link(second, { email, name: "Shared" });
    expect(again.toast).toEqual({
      title: "Failed to connect channel",
      description: "This YouTube channel is already linked to another account.",
    });
    expect(await channelOf(second.id)).toBeNull();
    expect((await channelOf(first.id))?.user_id).toBe(first.id);
  });

  it("answers 'YouTube OAuth is not configured properly' without a client", async () => {
    const user = await createUser("creator");
    const vars = env as unknown as Record<string, string>;
    const secret = present(vars.GOOGLE_CLIENT_SECRET, "GOOGLE_CLIENT_SECRET in the test bindings");
    vars.GOOGLE_CLIENT_SECRET = "";
    try {
      const res = await postForm("/channels", { intent: "connect" }, { headers: { Cookie: user.cookie } });
      expect(res.status).toBe(503);
      const html = await res.text();
      expect(html).toContain("Failed to connect channel");
      expect(html).toContain("YouTube OAuth is not configured properly. Please contact support.");
    } finally {
      vars.GOOGLE_CLIENT_SECRET = secret;
    }
  });
});

describe("refresh and disconnect", () => {
  it("refreshes the owner's channel: counts, last_synced_at and one snapshot per day", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("refresh") });
    const channel = await channelOf(user.id);
    await env.DB.prepare(
      "UPDATE youtube_channels SET subscriber_count = 0, view_count = 0, video_count = 0, last_synced_at = '2020-01-01T00:00:00.000Z' WHERE id = ?",
    )
      .bind(channel!.id)
      .run();
    const res = await postForm("/channels", { intent: "refresh", channelId: channel!.id }, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toEqual({ title: "Channel updated", description: "Channel data has been refreshed" });
    const after = await channelOf(user.id);
    expect(after).toMatchObject({ subscriber_count: 1000, view_count: 100000, video_count: 10 });
    expect(after!.last_synced_at > "2020-01-01").toBe(true);
    expect(await count("SELECT count(*) AS n FROM channel_snapshots WHERE channel_row_id = ?", channel!.id)).toBe(1);
  });

  it("uses the refresh token when the access token has expired", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("renew") });
    const channel = await channelOf(user.id);
    const before = await tokensOf(channel!.id);
    await env.DB.prepare("UPDATE youtube_channel_tokens SET access_token_expires_at = '2000-01-01T00:00:00.000Z' WHERE channel_row_id = ?")
      .bind(channel!.id)
      .run();
    const res = await postForm("/channels", { intent: "refresh", channelId: channel!.id }, { headers: { Cookie: user.cookie } });
    expect(await toastOf(res)).toMatchObject({ title: "Channel updated" });
    const after = await tokensOf(channel!.id);
    expect(after.access).not.toBe(before.access);
    expect(after.refresh).toBe(before.refresh);
    expect(Date.parse(after.row!.access_token_expires_at)).toBeGreaterThan(Date.now());
  });

  it("a revoked grant fails with the reason and offers to reconnect", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("revoked") });
    const channel = await channelOf(user.id);
    await revokeGrant(channel!.id);
    const res = await postForm("/channels", { intent: "refresh", channelId: channel!.id }, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("Failed to refresh channel");
    expect(html).toContain("Token has been expired or revoked.");
    expect(html).toContain("Reconnect YouTube channel");
  });

  it("refuses to refresh or disconnect another user's channel, changing nothing", async () => {
    const owner = await createUser("creator");
    const other = await createUser("creator");
    await link(owner, { email: uniqueEmail("owned") });
    const channel = await channelOf(owner.id);
    await env.DB.prepare("UPDATE youtube_channels SET subscriber_count = 7 WHERE id = ?").bind(channel!.id).run();

    const refresh = await postForm("/channels", { intent: "refresh", channelId: channel!.id }, { headers: { Cookie: other.cookie } });
    expect(refresh.status).toBe(404);
    expect(await refresh.text()).toContain("Failed to refresh channel");
    const disconnect = await postForm("/channels", { intent: "disconnect", channelId: channel!.id }, { headers: { Cookie: other.cookie } });
    expect(disconnect.status).toBe(404);
    expect(await disconnect.text()).toContain("Failed to disconnect channel");

    const still = await channelOf(owner.id);
    expect(still?.subscriber_count).toBe(7);
    expect((await tokensOf(channel!.id)).row).not.toBeNull();
    // An id that is not an id at all is refused too.
    const junk = await postForm("/channels", { intent: "disconnect", channelId: "' OR 1=1 --" }, { headers: { Cookie: other.cookie } });
    expect(junk.status).toBe(400);
    expect(await channelOf(owner.id)).not.toBeNull();
  });

  it("disconnect removes the channel, its tokens and snapshots, and revokes the grant", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("bye") });
    const channel = await channelOf(user.id);
    const { refresh } = await tokensOf(channel!.id);
    const res = await postForm("/channels", { intent: "disconnect", channelId: channel!.id }, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toEqual({
      title: "Channel disconnected",
      description: "YouTube channel has been removed from your account",
    });
    expect(await channelOf(user.id)).toBeNull();
    const left = await env.DB.batch<{ n: number }>([
      env.DB.prepare("SELECT count(*) AS n FROM youtube_channel_tokens WHERE channel_row_id = ?").bind(channel!.id),
      env.DB.prepare("SELECT count(*) AS n FROM channel_snapshots WHERE channel_row_id = ?").bind(channel!.id),
    ]);
    expect(left.map((r) => present(r.results[0], "a count row").n)).toEqual([0, 0]);
    // The grant was revoked at the provider.
    const renew = await standIn("token", { grant_type: "refresh_token", refresh_token: refresh!, client_id: "shortbeat-local" });
    expect(renew.status).toBe(400);
    expect(await connectedCount(user.id)).toBe(0);
  });
});

describe("refresh and disconnect under concurrency", () => {
  it("two parallel disconnects: one removes the channel and writes the one audit row, the other finds nothing", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("twice") });
    const channel = await channelOf(user.id);
    const results = await Promise.all(
      [1, 2].map(() => postForm("/channels", { intent: "disconnect", channelId: channel!.id }, { headers: { Cookie: user.cookie } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([302, 404]);
    expect(await channelOf(user.id)).toBeNull();
    const logged = await env.DB.prepare(
      "SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'youtube_channel_disconnected' AND json_extract(details, '$.channel_row_id') = ?",
    )
      .bind(channel!.id)
      .first<{ n: number }>();
    expect(logged?.n).toBe(1);
  });
});

describe("bodies that are not the page's form", () => {
  const send = (path: string, cookie: string, body: BodyInit | null, type: string | null) =>
    fetchApp(path, {
      method: "POST",
      headers: { Origin: ORIGIN, Cookie: cookie, ...(type ? { "Content-Type": type } : {}) },
      body,
    });
  const bodies: [string, BodyInit | null, string | null, number][] = [
    ["JSON", JSON.stringify({ intent: "submit", channelName: "Json" }), "application/json", 415],
    ["text", "intent=submit&channelName=Text", "text/plain", 415],
    ["empty", null, null, 415],
    ["broken multipart", "--nope\r\ngarbage", "multipart/form-data; boundary=xyz", 400],
  ];

  it("/channels answers 415 or 400 and changes nothing", async () => {
    const user = await createUser("creator");
    for (const [label, body, type, status] of bodies) {
      const res = await send("/channels", user.cookie, body, type);
      expect(res.status, label).toBe(status);
    }
    expect(await count("SELECT count(*) AS n FROM manual_channel_submissions WHERE user_id = ?", user.id)).toBe(0);
    // The same user's real form still works afterwards.
    const ok = await postForm("/channels", { intent: "submit", channelName: "Real" }, { headers: { Cookie: user.cookie } });
    expect(ok.status).toBe(302);
  });

  it("/admin/verifications answers 415 or 400 and decides nothing", async () => {
    const creator = await createUser("creator");
    await postForm("/channels", { intent: "submit", channelName: "Body test" }, { headers: { Cookie: creator.cookie } });
    const row = await env.DB.prepare("SELECT id FROM manual_channel_submissions WHERE user_id = ?").bind(creator.id).first<{ id: string }>();
    await postForm("/channels", { intent: "submit-verification", id: row!.id }, { headers: { Cookie: creator.cookie } });
    const admin = await createUser("admin");
    for (const [label, body, type, status] of [
      ["JSON", JSON.stringify({ intent: "verify", id: row!.id }), "application/json", 415],
      ["text", `intent=verify&id=${row!.id}`, "text/plain", 415],
      ["empty", null, null, 415],
      ["broken multipart", "--nope\r\ngarbage", "multipart/form-data; boundary=xyz", 400],
    ] as typeof bodies) {
      expect((await send("/admin/verifications", admin.cookie, body, type)).status, label).toBe(status);
    }
    const still = await env.DB.prepare("SELECT status FROM manual_channel_submissions WHERE id = ?").bind(row!.id).first<{ status: string }>();
    expect(still?.status).toBe("verification_submitted");
  });

  it("an unknown intent is a 400 that changes nothing", async () => {
    const user = await createUser("creator");
    const res = await postForm("/channels", { intent: "delete-everything" }, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Unknown action.");
  });
});

describe("manual submissions", () => {
  it("validates the fields with the 'Submit failed' toast", async () => {
    const user = await createUser("creator");
    const cases: [Record<string, string>, string][] = [
      [{ channelName: "  " }, "Channel name is required."],
      [{ channelName: "Mine", channelUrl: "not a url" }, "Please enter a valid channel URL."],
      [{ channelName: "Mine", channelUrl: "javascript:alert(1)" }, "Please enter a valid channel URL."],
      [{ channelName: "Mine", subscriberCount: "-5" }, "Subscriber count must be a whole number of 0 or more."],
      [{ channelName: "Mine", avgMonthlyViews: "1.5" }, "Average monthly views must be a whole number of 0 or more."],
      [{ channelName: "x".repeat(101) }, "Channel name must be 100 characters or less."],
    ];
    for (const [fields, message] of cases) {
      const res = await postForm("/channels", { intent: "submit", ...fields }, { headers: { Cookie: user.cookie } });
      expect(res.status, message).toBe(400);
      const html = await res.text();
      expect(html).toContain("Submit failed");
      expect(html).toContain(message);
    }
    expect(await count("SELECT count(*) AS n FROM manual_channel_submissions WHERE user_id = ?", user.id)).toBe(0);
  });

  it("inserts with creator_id from the profile, a null URL when empty, status pending; then submits for verification", async () => {
    const user = await createUser("creator");
    const res = await postForm(
      "/channels",
      { intent: "submit", channelName: "My <b>Clips</b>", channelUrl: "", subscriberCount: "1200", avgMonthlyViews: "" },
      { headers: { Cookie: user.cookie } },
    );
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toEqual({ title: "Submitted", description: "Your channel has been submitted." });
    const row = await env.DB.prepare("SELECT * FROM manual_channel_submissions WHERE user_id = ?").bind(user.id).first<Record<string, any>>();
    expect(row).toMatchObject({
      creator_id: user.creatorId,
      channel_name: "My bClips/b",
      channel_url: null,
      subscriber_count: 1200,
      avg_monthly_views: 0,
      status: "pending",
      verification_submitted_at: null,
    });

    const withUrl = await postForm(
      "/channels",
      {
        intent: "submit",
        channelName: "Second",
        channelUrl: "youtube.com/@second",
        subscriberCount: "0",
        avgMonthlyViews: "5000",
      },
      { headers: { Cookie: user.cookie } },
    );
    expect(withUrl.status).toBe(302);
    const second = await env.DB.prepare("SELECT channel_url FROM manual_channel_submissions WHERE channel_name = 'Second' AND user_id = ?")
      .bind(user.id)
      .first<{ channel_url: string }>();
    expect(second?.channel_url).toBe("https://youtube.com/@second");

    const verify = await postForm("/channels", { intent: "submit-verification", id: row!.id }, { headers: { Cookie: user.cookie } });
    expect(verify.status).toBe(302);
    expect(await toastOf(verify)).toEqual({ title: "Submitted for verification", description: "We will review shortly." });
    const sent = await env.DB.prepare("SELECT status, verification_submitted_at FROM manual_channel_submissions WHERE id = ?")
      .bind(row!.id)
      .first<Record<string, any>>();
    expect(sent?.status).toBe("verification_submitted");
    expect(sent?.verification_submitted_at).toBeTruthy();

    const twice = await postForm("/channels", { intent: "submit-verification", id: row!.id }, { headers: { Cookie: user.cookie } });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("Action failed");
  });

  it("cannot send another user's submission for verification", async () => {
    const owner = await createUser("creator");
    const other = await createUser("creator");
    await postForm("/channels", { intent: "submit", channelName: "Owned" }, { headers: { Cookie: owner.cookie } });
    const row = await env.DB.prepare("SELECT id FROM manual_channel_submissions WHERE user_id = ?").bind(owner.id).first<{ id: string }>();
    const res = await postForm("/channels", { intent: "submit-verification", id: row!.id }, { headers: { Cookie: other.cookie } });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Action failed");
    const still = await env.DB.prepare("SELECT status FROM manual_channel_submissions WHERE id = ?").bind(row!.id).first<{ status: string }>();
    expect(still?.status).toBe("pending");
  });
});

describe("admin verification queue", () => {
  async function waitingSubmission(name: string) {
    const creator = await createUser("creator");
    await postForm("/channels", { intent: "submit", channelName: name, subscriberCount: "10" }, { headers: { Cookie: creator.cookie } });
    const row = await env.DB.prepare("SELECT id FROM manual_channel_submissions WHERE user_id = ?").bind(creator.id).first<{ id: string }>();
    await postForm("/channels", { intent: "submit-verification", id: row!.id }, { headers: { Cookie: creator.cookie } });
    return { creator, id: row!.id };
  }

  it("is refused to non-admins, who change nothing", async () => {
    const { id } = await waitingSubmission("Not yours");
    const creator = await createUser("creator");
    const page = await fetchApp("/admin/verifications", { headers: { Cookie: creator.cookie } });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/dashboard");
    const post = await postForm("/admin/verifications", { intent: "verify", id }, { headers: { Cookie: creator.cookie } });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toBe("/dashboard");
    const row = await env.DB.prepare("SELECT status FROM manual_channel_submissions WHERE id = ?").bind(id).first<{ status: string }>();
    expect(row?.status).toBe("verification_submitted");
  });

  it("lists waiting submissions oldest first; verify counts the channel, audits and notifies", async () => {
    const a = await waitingSubmission("Oldest Channel");
    const b = await waitingSubmission("Newer Channel");
    await env.DB.prepare("UPDATE manual_channel_submissions SET verification_submitted_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").bind(a.id).run();
    const admin = await createUser("admin");
    const html = await okText(fetchApp("/admin/verifications", { headers: { Cookie: admin.cookie } }));
    expect(html.indexOf("Oldest Channel")).toBeGreaterThan(-1);
    expect(html.indexOf("Oldest Channel")).toBeLessThan(html.indexOf("Newer Channel"));

    expect(await connectedCount(a.creator.id)).toBe(0);
    const res = await postForm("/admin/verifications", { intent: "verify", id: a.id }, { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(302);
    expect((await toastOf(res))?.title).toBe("Channel verified");
    const row = await env.DB.prepare("SELECT status, reviewed_by, reviewed_at FROM manual_channel_submissions WHERE id = ?")
      .bind(a.id)
      .first<Record<string, any>>();
    expect(row).toMatchObject({ status: "verified", reviewed_by: admin.id });
    expect(row?.reviewed_at).toBeTruthy();
    expect(await connectedCount(a.creator.id)).toBe(1);

    const logged = await env.DB.prepare("SELECT user_id, target_user_id FROM security_audit_log WHERE event_type = 'channel_submission_verified'").first();
    expect(logged).toEqual({ user_id: admin.id, target_user_id: a.creator.id });
    const note = await env.DB.prepare(
      "SELECT n.title, n.kind FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ?",
    )
      .bind(a.creator.id)
      .first();
    expect(note).toEqual({ title: "Channel verified", kind: "channel_verified" });

    // Deciding twice is refused.
    const again = await postForm("/admin/verifications", { intent: "reject", id: a.id, reason: "late" }, { headers: { Cookie: admin.cookie } });
    expect(again.status).toBe(409);
    expect(b.id).toBeTruthy();
  });

  it("reject needs a reason, stores it and notifies the creator", async () => {
    const { creator, id } = await waitingSubmission("Reject Me");
    const admin = await createUser("admin");
    const noReason = await postForm("/admin/verifications", { intent: "reject", id, reason: " " }, { headers: { Cookie: admin.cookie } });
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("A reason is required to reject a submission.");

    const res = await postForm("/admin/verifications", { intent: "reject", id, reason: "Channel URL does not match." }, { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(302);
    const row = await env.DB.prepare("SELECT status, rejection_reason FROM manual_channel_submissions WHERE id = ?").bind(id).first();
    expect(row).toEqual({ status: "rejected", rejection_reason: "Channel URL does not match." });
    const note = await env.DB.prepare(
      "SELECT n.title, n.content FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ?",
    )
      .bind(creator.id)
      .first<{ title: string; content: string }>();
    expect(note?.title).toBe("Channel verification rejected");
    expect(note?.content).toContain("Channel URL does not match.");
    expect(await connectedCount(creator.id)).toBe(0);
    // The creator can send it again.
    const resend = await postForm("/channels", { intent: "submit-verification", id }, { headers: { Cookie: creator.cookie } });
    expect(resend.status).toBe(302);
  });
});

describe("admin verification under concurrency", () => {
  it("20 parallel decisions on one submission: one is applied, with one audit row and one notification", async () => {
    const creator = await createUser("creator");
    await postForm("/channels", { intent: "submit", channelName: "Race Channel" }, { headers: { Cookie: creator.cookie } });
    const row = await env.DB.prepare("SELECT id FROM manual_channel_submissions WHERE user_id = ?").bind(creator.id).first<{ id: string }>();
    const id = row!.id;
    await postForm("/channels", { intent: "submit-verification", id }, { headers: { Cookie: creator.cookie } });
    const admin = await createUser("admin");

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postForm("/admin/verifications", i % 2 ? { intent: "verify", id } : { intent: "reject", id, reason: "Raced." }, {
          headers: { Cookie: admin.cookie },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);

    const decided = await env.DB.prepare("SELECT status FROM manual_channel_submissions WHERE id = ?").bind(id).first<{ status: string }>();
    expect(["verified", "rejected"]).toContain(decided?.status);
    const audits = await env.DB.prepare(
      `SELECT event_type FROM security_audit_log
       WHERE event_type IN ('channel_submission_verified', 'channel_submission_rejected') AND json_extract(details, '$.submission_id') = ?`,
    )
      .bind(id)
      .all<{ event_type: string }>();
    expect(audits.results).toEqual([{ event_type: `channel_submission_${decided?.status}` }]);
    expect(await count("SELECT count(*) AS n FROM user_notifications WHERE user_id = ?", creator.id)).toBe(1);
  });
});

describe("the daily refresh job", () => {
  it("refreshes every channel in batches; one failing channel never stops the others", async () => {
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => createUser("creator")));
    for (const u of users) await link(u, { email: uniqueEmail("cron") });
    const rows = await Promise.all(users.map((u) => channelOf(u.id)));
    await env.DB.prepare(
      "UPDATE youtube_channels SET subscriber_count = 0, last_synced_at = '2020-01-01T00:00:00.000Z' WHERE id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(rows.map((r) => r!.id)))
      .run();
    const broken = rows[1]!;
    await revokeGrant(broken.id);

    const summary = await runDailyChannelRefresh({ batchSize: 2 });
    expect(summary.failed.map((f) => f.channelRowId)).toContain(broken.id);
    const brokenFailure = summary.failed.find((f) => f.channelRowId === broken.id)!;
    expect(brokenFailure.reconnect).toBe(true);
    expect(brokenFailure.reason).toContain("Token has been expired or revoked.");
    for (const r of rows) {
      const now = await env.DB.prepare("SELECT subscriber_count, last_synced_at FROM youtube_channels WHERE id = ?").bind(r!.id).first<Record<string, any>>();
      if (r!.id === broken.id) expect(now?.subscriber_count).toBe(0);
      else {
        expect(now?.subscriber_count).toBe(1000);
        expect(now?.last_synced_at > "2020-01-01").toBe(true);
      }
    }
    const failed = await env.DB.prepare("SELECT details FROM security_audit_log WHERE event_type = 'channel_refresh_failed'").all<{ details: string }>();
    expect(failed.results.some((f) => JSON.parse(f.details).channel_row_id === broken.id)).toBe(true);
  });

  it("keeps going when a refresh throws unexpectedly", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("boom") });
    const calls: string[] = [];
    const summary = await runDailyChannelRefresh({
      batchSize: 3,
      sync: async (_req, target) => {
        calls.push(target.id);
        if (calls.length === 1) throw new Error("boom");
        return {
          id: target.channelId,
          title: "",
          handle: null,
          description: null,
          thumbnailUrl: null,
          subscriberCount: 0,
          viewCount: 0,
          videoCount: 0,
        };
      },
    });
    expect(calls.length).toBe(summary.total);
    expect(summary.failed).toHaveLength(1);
    expect(summary.refreshed).toBe(summary.total - 1);
  });

  it("runs from the Worker's scheduled handler", async () => {
    const user = await createUser("creator");
    await link(user, { email: uniqueEmail("sched") });
    const row = await channelOf(user.id);
    await env.DB.prepare("UPDATE youtube_channels SET subscriber_count = 0, last_synced_at = NULL WHERE id = ?").bind(row!.id).run();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "17 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const after = await channelOf(user.id);
    expect(after?.subscriber_count).toBe(1000);
    // Also through the platform's own entry point (its waitUntil work finishes after the call).
    await env.DB.prepare("UPDATE youtube_channels SET subscriber_count = 0 WHERE id = ?").bind(row!.id).run();
    await (exports.default as unknown as { scheduled: (o: { cron: string }) => Promise<unknown> }).scheduled({
      cron: "17 3 * * *",
    });
    await vi.waitFor(async () => expect((await channelOf(user.id))?.subscriber_count).toBe(1000), {
      timeout: 10_000,
      interval: 100,
    });
  });
});

describe("/analytics and its CSV export", () => {
  it("shows the seeded demo channel's snapshots as charts with a table fallback, growth and a CSV of the range", async () => {
    const { seedDemoData, DEMO_ACCOUNTS } = await import("~/dev/seed.server");
    const { hashPassword } = await import("~/modules/accounts/accounts.server");
    const { signInAs } = await import("../../factories/users");
    await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
    const creator = DEMO_ACCOUNTS.find((a) => a.kind === "creator")!;
    const { cookie } = await signInAs(creator.id);

    const snaps = await env.DB.prepare(
      "SELECT count(*) AS n, max(day) AS last FROM channel_snapshots WHERE channel_row_id = '00000000-0000-4000-8000-000000000201'",
    ).first<{ n: number; last: string }>();
    expect(snaps).toEqual({ n: 31, last: today() });

    const page = await fetchApp("/analytics?range=7", { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Subscribers over the last 7 days");
    expect(html).toContain("Casey Creates");
    expect(html).toContain('aria-current="page"');
    expect(html).toMatch(/\+[\d,]+ \(\+\d+\.\d%\)/);
    expect(html).toContain('href="/api/analytics.csv?range=7"');

    const csv = await fetchApp("/api/analytics.csv?range=7", { headers: { Cookie: cookie } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    expect(csv.headers.get("Content-Disposition")).toMatch(/attachment; filename="shortbeat-analytics-7d-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("date,channel,channel_id,subscribers,views,videos");
    expect(lines.filter((l) => l.includes(",Casey Creates,"))).toHaveLength(7);
    expect(lines.at(-1)).toMatch(new RegExp(`^${today()},All channels,,\\d+,\\d+,\\d+$`));

    // The seed is idempotent: a second run adds no snapshot.
    await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
    expect(await count("SELECT count(*) AS n FROM channel_snapshots WHERE channel_row_id = '00000000-0000-4000-8000-000000000201'")).toBe(31);
  });

  it("leads to /channels when there is nothing to show, and keeps each user's data to themselves", async () => {
    const user = await createUser("creator");
    const empty = await fetchApp("/analytics", { headers: { Cookie: user.cookie } });
    const html = await empty.text();
    expect(html).toContain("No channels linked yet");
    expect(html).toContain('href="/channels"');

    await link(user, { email: uniqueEmail("mine") });
    const mine = await (await fetchApp("/api/analytics.csv?range=30", { headers: { Cookie: user.cookie } })).text();
    expect(mine).toContain(today());
    expect(mine).not.toContain("Casey Creates");
  });

  it("guards the CSV export (401 signed out, 403 unapproved)", async () => {
    expect((await fetchApp("/api/analytics.csv")).status).toBe(401);
    const pending = await createUser("pending");
    expect((await fetchApp("/api/analytics.csv", { headers: { Cookie: pending.cookie } })).status).toBe(403);
    const anon = await fetchApp("/analytics");
    expect(anon.headers.get("Location")).toMatch(/^\/auth/);
  });
});
