import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_ACCOUNTS, DEMO_AGENCY, seedDemoData } from "~/dev/seed.server";
import { hashPassword, verifyPassword } from "~/modules/accounts/accounts.server";
import { addDays, dayOf } from "~/modules/payments/calendar";
import { providerFetch } from "~/platform/oauth.server";
import { ORIGIN, fetchApp, okText, postForm } from "../helpers";
import { present } from "../../helpers/present";

// The first request compiles the whole app inside workerd: do it once here, with time to spare on
// a busy machine, rather than inside the first test's 30 s.
beforeAll(async () => {
  await fetchApp("/");
}, 180_000);

describe("migrations and seed", () => {
  it("creates every table of the schema", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    ).all<{ name: string }>();
    const names = results.map((r) => r.name);
    for (const table of [
      "users",
      "profiles",
      "user_roles",
      "sessions",
      "oauth_accounts",
      "one_time_tokens",
      "security_audit_log",
      "email_outbox",
      "app_settings",
      "agencies",
      "agency_users",
      "agency_signup_tokens",
      "notifications",
      "user_notifications",
      "youtube_channels",
      "manual_channel_submissions",
      "music_tracks",
    ]) {
      expect(names).toContain(table);
    }
  });

  it("refuses a status outside the allowed values", async () => {
    await env.DB.prepare("INSERT INTO users (id, email) VALUES ('u-check', 'check@example.com')").run();
    await expect(env.DB.prepare("INSERT INTO profiles (user_id, creator_id, approval_status) VALUES ('u-check', 'CHK', 'maybe')").run()).rejects.toThrow(
      /CHECK constraint failed/,
    );
  });

  it("seeds one account of every kind, idempotently, with playable audio", async () => {
    const first = await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
    expect(first.usersCreated).toBe(DEMO_ACCOUNTS.length);
    const second = await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
    expect(second).toEqual({ usersCreated: 0, tracksUploaded: 0 });

    const counts = await env.DB.batch([
      env.DB.prepare("SELECT count(*) AS n FROM users WHERE email LIKE '%@shortbeat.test'"),
      env.DB.prepare("SELECT count(*) AS n FROM profiles JOIN users ON users.id = profiles.user_id WHERE email LIKE '%@shortbeat.test'"),
      env.DB.prepare("SELECT count(*) AS n FROM music_tracks"),
      env.DB.prepare("SELECT count(*) AS n FROM agencies"),
      env.DB.prepare("SELECT count(*) AS n FROM youtube_channels"),
    ]);
    const n = counts.map((c) => (c.results[0] as { n: number }).n);
    expect(n[0]).toBe(DEMO_ACCOUNTS.length);
    expect(n[1]).toBe(DEMO_ACCOUNTS.length);
    expect(n[2]).toBeGreaterThanOrEqual(3);
    expect(n[3]).toBe(1);
    expect(n[4]).toBe(1);

    const row = (sql: string, ...args: unknown[]) =>
      env.DB.prepare(sql)
        .bind(...args)
        .first<Record<string, unknown>>();
    const byKind = Object.fromEntries(DEMO_ACCOUNTS.map((a) => [a.kind, a]));
    const account = (kind: string) => present(byKind[kind], `the demo ${kind} account`);
    expect(await row("SELECT role FROM user_roles WHERE user_id = ?", account("admin").id)).toEqual({ role: "admin" });
    expect((await row("SELECT approval_status FROM profiles WHERE user_id = ?", account("pending").id))?.approval_status).toBe("pending");
    expect((await row("SELECT approval_status FROM profiles WHERE user_id = ?", account("rejected").id))?.approval_status).toBe("rejected");
    expect((await row("SELECT is_banned FROM profiles WHERE user_id = ?", account("banned").id))?.is_banned).toBe(1);
    expect((await row("SELECT is_music_partner FROM profiles WHERE user_id = ?", account("partner").id))?.is_music_partner).toBe(1);
    expect(
      await row(
        "SELECT a.slug, a.status, a.approval_status FROM agency_users au JOIN agencies a ON a.id = au.agency_id WHERE au.user_id = ?",
        account("agency").id,
      ),
    ).toEqual({ slug: DEMO_AGENCY.slug, status: "active", approval_status: "approved" });
    expect(await row("SELECT creator_user_id FROM clipper_links WHERE clipper_user_id = ?", account("clipper").id)).toEqual({
      creator_user_id: account("creator").id,
    });
    expect((await row("SELECT count(*) AS n FROM manual_channel_submissions WHERE user_id = ? AND status = 'verified'", account("creator").id))?.n).toBe(1);
    // Dated relative to today: the creator verified 130 days ago, with the agency and its channel since 125 days ago (before the
    // payments seed's oldest month), the manual channel reviewed 52 days ago, the channel synced today.
    const ago = (n: number) => addDays(dayOf(new Date()), -n);
    expect(
      await row(
        `SELECT substr(u.email_verified_at, 1, 10) AS verified, substr(p.term_started_at, 1, 10) AS term, substr(c.created_at, 1, 10) AS linked,
           substr(c.last_synced_at, 1, 10) AS synced, substr(m.reviewed_at, 1, 10) AS reviewed
         FROM users u JOIN profiles p ON p.user_id = u.id JOIN youtube_channels c ON c.user_id = u.id JOIN manual_channel_submissions m ON m.user_id = u.id
         WHERE u.id = ?`,
        account("creator").id,
      ),
    ).toEqual({ verified: ago(130), term: ago(125), linked: ago(125), synced: ago(0), reviewed: ago(52) });

    // The demo password works against the stored hash.
    const user = await row("SELECT password_hash FROM users WHERE id = ?", account("creator").id);
    expect((await verifyPassword(String(user?.password_hash), "Shortbeat#2026")).valid).toBe(true);

    // Every track's audio is a real WAV file in MEDIA.
    const tracks = await env.DB.prepare("SELECT audio_key FROM music_tracks").all<{ audio_key: string }>();
    for (const t of tracks.results) {
      const obj = await env.MEDIA.get(t.audio_key);
      expect(obj).not.toBeNull();
      const head = new Uint8Array(await obj!.arrayBuffer()).slice(0, 12);
      expect(new TextDecoder().decode(head.slice(0, 4))).toBe("RIFF");
      expect(new TextDecoder().decode(head.slice(8, 12))).toBe("WAVE");
    }
  });
});

describe("public pages", () => {
  it("serves the landing page with the tagline, the 70% share and a sign-up link", async () => {
    const html = await okText(fetchApp("/"));
    expect(html).toContain("Empowering creators worldwide");
    expect(html).toContain("70%");
    expect(html).toMatch(/href="\/auth\?mode=signup"/);
    expect(html).toMatch(/<a[^>]+href="\/"[^>]*>/);
  });

  // The privacy policy has its own date since its words changed with the code that keeps them (issue 28).
  it.each([
    ["/terms-of-service", "31 August 2025"],
    ["/privacy-policy", "6 December 2026"],
    ["/music-partner-terms", "31 August 2025"],
  ])("serves %s, effective %s", async (path, effective) => {
    const res = await fetchApp(path);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`Effective ${effective}`);
  });

  it("puts both agreements in full on the terms page", async () => {
    const html = await (await fetchApp("/terms-of-service")).text();
    expect(html).toContain("Creator Agreement");
    expect(html).toContain("Clipper Agreement");
    expect(html).toContain("England and Wales");
    expect(html).toMatch(/18th/);
    expect(html).toMatch(/90 days/);
  });

  it("answers unknown paths with the not-found page and 404, documents and .data alike", async () => {
    const res = await fetchApp("/no/such/page");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page not found");
    const data = await fetchApp("/no/such/page.data");
    expect(data.status).toBe(404);
  });

  it("serves a valid sitemap of the public pages", async () => {
    const res = await fetchApp("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/xml");
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (const path of ["/", "/terms-of-service", "/privacy-policy", "/music-partner-terms"]) {
      expect(xml).toContain(`<loc>${new URL(path, ORIGIN).toString()}</loc>`);
    }
    expect((xml.match(/<url>/g) ?? []).length).toBe((xml.match(/<\/url>/g) ?? []).length);
  });

  it("renders the error screen when a route throws", async () => {
    const res = await fetchApp("/dev/throw");
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain("Something went wrong");
    expect(html).toContain("An unexpected error occurred. Please try the actions below.");
    expect(html).toContain("Error details");
    expect(html).toContain("Try Again");
    expect(html).toContain("Reload Page");
  });
});

describe("unexpected errors", () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  /** Runs `send` with console.error captured; returns the response and the logged objects. */
  async function withLog(send: () => Promise<Response>) {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await send();
      const body = await res.text();
      return { res, body, logged: spy.mock.calls.map((args) => args[0] as Record<string, unknown>) };
    } finally {
      spy.mockRestore();
    }
  }

  it("give every answer its own X-Request-Id", async () => {
    const ids = [];
    for (const path of ["/", "/healthz", "/no/such/page", "/sitemap.xml"]) {
      const id = (await fetchApp(path)).headers.get("X-Request-Id");
      expect(id, path).toMatch(UUID);
      ids.push(id);
    }
    const refused = await fetchApp("/", { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(refused.headers.get("X-Request-Id")).toMatch(UUID);
    ids.push(refused.headers.get("X-Request-Id"));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a render failure: error screen with the request id, logged under that id, no message or stack in the page", async () => {
    const { res, body, logged } = await withLog(() => fetchApp("/dev/throw"));
    expect(res.status).toBe(500);
    const id = res.headers.get("X-Request-Id") ?? "";
    expect(id).toMatch(UUID);
    expect(body).toContain("Something went wrong");
    expect(body).toContain(`Request ID: <code`);
    expect(body).toContain(id);
    // Outside development mode the server replaces the error before it reaches the page.
    expect(body).not.toContain("Test render failure");
    expect(body).not.toMatch(/\bat [\w$.<>]+ \(|\.tsx:\d+:\d+/);
    // One log line, with the id, the route and the real error (and its stack, for us only).
    const lines = logged.filter((l) => l?.requestId === id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ message: "Unexpected error", method: "GET", path: "/dev/throw" });
    expect(String(lines[0]?.error)).toContain("Test render failure from /dev/throw");
    expect(String(lines[0]?.stack)).toContain("Test render failure");
  });

  it("a loader failure, as a page and as a .data request: logged with the id, sanitized in the answer", async () => {
    for (const path of ["/dev/throw?in=loader", "/dev/throw.data?in=loader"]) {
      const { res, body, logged } = await withLog(() => fetchApp(path));
      expect(res.status, path).toBe(500);
      const id = res.headers.get("X-Request-Id") ?? "";
      expect(id).toMatch(UUID);
      expect(body).not.toContain("Test loader failure");
      expect(body).toContain("Unexpected Server Error");
      const lines = logged.filter((l) => l?.requestId === id);
      expect(lines, path).toHaveLength(1);
      expect(String(lines[0]?.error)).toContain("Test loader failure from /dev/throw");
    }
  });

  it("the development tools are built into the test build: the stand-in provider answers in-process", async () => {
    expect(__DEV_TOOLS_BUILD__).toBe(true);
    const res = await providerFetch(new Request(ORIGIN), "/dev/oauth/userinfo", { headers: { Authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "invalid_token" });
  });

  it("an expected refusal (a thrown 404) is not logged as unexpected", async () => {
    const { res, logged } = await withLog(() => fetchApp("/no/such/page"));
    expect(res.status).toBe(404);
    expect(logged.filter((l) => l?.message === "Unexpected error")).toEqual([]);
  });
});

describe("security on every response", () => {
  it.each(["/", "/healthz", "/no/such/page", "/sitemap.xml"])("sets the security headers on %s", async (path) => {
    const res = await fetchApp(path);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("uses a fresh nonce per request, and every inline script carries it", async () => {
    const a = await fetchApp("/");
    const b = await fetchApp("/");
    const nonceOf = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get("Content-Security-Policy") ?? "")?.[1];
    const na = nonceOf(a);
    expect(na).toBeTruthy();
    expect(na).not.toBe(nonceOf(b));
    const html = await a.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${na}"`);
  });

  it("serves the plain-text health check", async () => {
    const res = await fetchApp("/healthz");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
  });

  it.each([
    ["a foreign Origin", { Origin: "https://evil.example" }],
    ["no Origin", {}],
    ["the literal null Origin", { Origin: "null" }],
  ])("refuses a POST with %s before any action runs", async (_label, headers) => {
    const res = await fetchApp("/", { method: "POST", headers, body: new URLSearchParams({ a: "1" }) });
    expect(res.status).toBe(403);
    const resource = await fetchApp("/sitemap.xml", { method: "POST", headers });
    expect(resource.status).toBe(403);
  });

  it("lets a same-origin POST through to the router", async () => {
    const res = await postForm("/no/such/page", { a: "1" });
    expect(res.status).toBe(404);
  });
});
