// Every search box past D1's LIKE limit (issue 27, item 3): D1 refuses LIKE/GLOB patterns over 50
// bytes ("LIKE or GLOB pattern too complex"), so a long or non-Latin query answered 500. Each box
// gets 24 Cyrillic characters (48 bytes), 16 CJK characters (48 bytes) and 200-byte queries, and
// must answer with results (the person whose name it is) or an empty list, never 500.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";

const CYRILLIC = "Александра Константинова"; // 24 characters, 47 bytes
const CJK = "高橋美咲高橋美咲高橋美咲高橋美咲"; // 16 characters, 48 bytes
const LONG_ASCII = "x".repeat(200); // 200 bytes
const LONG_CYRILLIC = "Ж".repeat(100); // 100 characters, 200 bytes
const QUERIES = { cyrillic: CYRILLIC, cjk: CJK, longAscii: LONG_ASCII, longCyrillic: LONG_CYRILLIC, wildcards: `%_\\${"%".repeat(60)}` };

let admin: TestUser;
let russian: TestUser;
let japanese: TestUser;
const channelIds = { russian: crypto.randomUUID(), japanese: crypto.randomUUID() };

beforeAll(async () => {
  expect(new TextEncoder().encode(CYRILLIC).length).toBeGreaterThan(40);
  expect(new TextEncoder().encode(CJK).length).toBe(48);
  [admin, russian, japanese] = await Promise.all([
    createUser("admin"),
    createUser("creator", { fullName: `${CYRILLIC} Иванова` }),
    createUser("creator", { fullName: `${CJK}さん` }),
  ]);
  const insert = env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, ?)");
  await env.DB.batch([
    insert.bind(channelIds.russian, russian.id, `UC${channelIds.russian.slice(0, 8)}`, `Канал ${CYRILLIC}`),
    insert.bind(channelIds.japanese, japanese.id, `UC${channelIds.japanese.slice(0, 8)}`, `チャンネル ${CJK}`),
  ]);
  await fetchApp("/auth");
}, 180_000);

const get = (path: string) => fetchApp(path, withCookie(admin.cookie));

describe("search boxes with long and non-Latin queries", () => {
  it("chat mention search (/api/chat?members=): results or an empty list, never 500", async () => {
    for (const [kind, q] of Object.entries(QUERIES)) {
      const res = await get(`/api/chat?members=${encodeURIComponent(q)}`);
      expect(res.status, kind).toBe(200);
      const { members } = (await res.json()) as { members: { id: string }[] };
      if (kind === "cyrillic") expect(members.map((m) => m.id)).toContain(russian.id);
      if (kind === "cjk") expect(members.map((m) => m.id)).toContain(japanese.id);
      if (kind.startsWith("long") || kind === "wildcards") expect(members).toEqual([]);
    }
  });

  it("the thumbnail editor's channel search (?channels=): results or an empty list, never 500", async () => {
    for (const [kind, q] of Object.entries(QUERIES)) {
      const res = await get(`/ai-thumbnail-editor/api?channels=${encodeURIComponent(q)}`);
      expect(res.status, kind).toBe(200);
      const { channels } = (await res.json()) as { channels: { id: string }[] };
      if (kind === "cyrillic") expect(channels.map((c) => c.id)).toEqual([channelIds.russian]);
      if (kind === "cjk") expect(channels.map((c) => c.id)).toEqual([channelIds.japanese]);
      if (kind.startsWith("long") || kind === "wildcards") expect(channels).toEqual([]);
    }
  });

  it("the admin's user search (/admin?q=): results or none, never 500", async () => {
    for (const [kind, q] of Object.entries(QUERIES)) {
      const res = await get(`/admin?q=${encodeURIComponent(q)}`);
      expect(res.status, kind).toBe(200);
      const html = await res.text();
      if (kind === "cyrillic") expect(html).toContain(russian.email);
      if (kind === "cjk") expect(html).toContain(japanese.email);
      if (kind.startsWith("long") || kind === "wildcards") {
        expect(html).not.toContain(russian.email);
        expect(html).not.toContain(japanese.email);
      }
    }
  });

  it("the audit log's person filter (/admin/audit-log?user=): results or none, never 500", async () => {
    // A row about the person, so the filter is evaluated (SQLite checks a LIKE pattern per row).
    const marker = `long-search-${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare("INSERT INTO security_audit_log (id, event_type, user_id, target_user_id, path) VALUES (?, 'long_search_test', ?, ?, ?)")
      .bind(crypto.randomUUID(), russian.id, russian.id, `/${marker}`)
      .run();
    const longEmail = `${russian.email.split("@")[0]}@${"d".repeat(60)}.example`;
    for (const [kind, q] of Object.entries({ ...QUERIES, email: russian.email, longEmail })) {
      const res = await get(`/admin/audit-log?user=${encodeURIComponent(q)}`);
      expect(res.status, kind).toBe(200);
      const html = await res.text();
      if (kind === "email") expect(html).toContain(marker);
      else expect(html).not.toContain(marker);
    }
  });

  it("the music library search (/music?q=): never 500", async () => {
    for (const [kind, q] of Object.entries(QUERIES)) {
      const res = await get(`/music?q=${encodeURIComponent(q)}`);
      expect(res.status, kind).toBe(200);
    }
  });
});
