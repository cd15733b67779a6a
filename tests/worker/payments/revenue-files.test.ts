// The files revenue really comes in (issue 29): the YouTube content-owner report (daily rows summed
// to the month), our own format after a spreadsheet re-saved it, and any CSV through a column
// mapping remembered per header; months that are not over are refused; one rounding per month;
// per-video lines on the statement and in its CSV (with a byte-order mark).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { addMonths, lastFullMonth, monthOf } from "~/modules/payments/calendar";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";
import fixtures from "./revenue-fixtures";
import { linkChannels } from "../../factories/channels";

let admin: TestUser;
let alpha: TestUser;
let bravo: TestUser;
const ALPHA = "UCfixtureYtAlpha000001";
const BRAVO = "UCfixtureYtBravo000001";

beforeAll(async () => {
  admin = await createUser("admin");
  alpha = await createUser("creator", { fullName: "Alpha Creator" });
  bravo = await createUser("creator", { fullName: "Bravo Creator" });
  await linkChannels([
    { userId: alpha.id, channelId: ALPHA, title: "Alpha Shorts" },
    { userId: bravo.id, channelId: BRAVO, title: "Bravo Shorts" },
  ]);
  await fetchApp("/auth");
}, 180_000);

function upload(month: string, csv: string, name = "revenue.csv") {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], name, { type: "text/csv" }));
  return fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
}
const post = (fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admin.cookie));
const staged = (month: string) =>
  env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' ORDER BY created_at DESC LIMIT 1").bind(month).first<{ id: string }>();
async function commit(month: string) {
  const s = await staged(month);
  expect(s).not.toBeNull();
  expect(await outcome(await post({ intent: "commit", importId: s?.id ?? "", replaces: "" }))).toBe("→/admin/payments");
  return s?.id ?? "";
}
const entries = (importId: string) =>
  env.DB.prepare("SELECT id, user_id, source_id, net_cents, amount_cents FROM ledger_entries WHERE import_id = ? ORDER BY user_id")
    .bind(importId)
    .all<{ id: string; user_id: string; source_id: string; net_cents: number; amount_cents: number }>();
const videoLines = (entryId: string) =>
  env.DB.prepare("SELECT video_id, net_cents, amount_cents FROM ledger_video_lines WHERE entry_id = ? ORDER BY video_id")
    .bind(entryId)
    .all<{ video_id: string; net_cents: number; amount_cents: number }>();

/** The fixtures are dated March 2031; imported as an earlier month (a month must be over), with their dates moved. */
const MONTH = "2025-03";
const moved = (text: string) => text.replaceAll("203103", "202503").replaceAll("Mar-31", "Mar-25").replaceAll("2031-03", "2025-03");

describe("the YouTube content-owner revenue report", () => {
  it("sums the daily rows to the month exactly, rounds once, and puts per-video lines on the statement and its CSV", async () => {
    const html = await (await upload(MONTH, moved(fixtures.youtube), "content_owner_estimated_revenue_a1.csv")).text();
    expect(html).toContain("YouTube content-owner revenue report");
    expect(html).toContain("$301.92"); // 301.918125, half up
    expect(html).toContain("301.918125 in the file");
    expect(html).toContain("Commit import");
    const importId = await commit(MONTH);
    const rows = (await entries(importId)).results;
    const mine = rows.find((r) => r.user_id === alpha.id);
    const theirs = rows.find((r) => r.user_id === bravo.id);
    // 174.718309 and 127.199816: each person's exact sum rounded (they add up to the month's 301.92).
    expect(mine).toMatchObject({ source_id: ALPHA, net_cents: 17472, amount_cents: 12230 });
    expect(theirs).toMatchObject({ source_id: BRAVO, net_cents: 12720, amount_cents: 8904 });
    const lines = (await videoLines(mine?.id ?? "")).results;
    expect(lines.map((l) => l.video_id)).toEqual(["alphaShortA1", "alphaShortA2", "alphaShortA3"]);
    expect(lines.reduce((s, l) => s + l.net_cents, 0)).toBe(17472);
    expect(lines.reduce((s, l) => s + l.amount_cents, 0)).toBe(12230);
    const imp = await env.DB.prepare("SELECT format, exact_total, rounding_remainder, net_cents FROM revenue_imports WHERE id = ?").bind(importId).first();
    expect(imp).toEqual({ format: "youtube", exact_total: "301.918125", rounding_remainder: "-0.001875", net_cents: 30192 });

    const page = await (await fetchApp(`/payments?month=${MONTH}`, withCookie(alpha.cookie))).text();
    expect(page).toContain("Music on your channel Alpha Shorts");
    expect(page).toContain("alphaShortA1");
    expect(page).toContain("rounded once to the cent");
    const csv = await fetchApp("/payments/statement.csv", withCookie(alpha.cookie));
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split("\r\n")[0]).toBe("month,source,video_id,net_revenue,share_percent,amount,currency,status");
    for (const l of lines)
      expect(text).toContain(
        `${MONTH},Music on your channel Alpha Shorts,${l.video_id},${(l.net_cents / 100).toFixed(2)},70.00,${(l.amount_cents / 100).toFixed(2)},USD,estimated`,
      );
  });

  it("refuses a row dated outside the chosen month, by its line, and writes nothing", async () => {
    const month = "2025-04";
    const text = `${moved(fixtures.youtube).replaceAll("202503", "202504").trim()}\n20250501,${ALPHA},alphaShortA1,claimed,thirdParty,US,1.000000,0,0,1\n`;
    const lines = text.trim().split("\n").length;
    const before = await count("SELECT count(*) AS n FROM revenue_imports");
    const html = await (await upload(month, text)).text();
    expect(html).toContain(`Line ${lines}: Date 20250501 is not in the month being imported (2025-04).`);
    expect(html).toContain("Nothing was imported");
    expect(html).toContain("$301.92"); // the readable rows' total still shows
    expect(await count("SELECT count(*) AS n FROM revenue_imports")).toBe(before);
  });
});

describe("our own format after a spreadsheet re-saved it", () => {
  it("reads 7.5, 8, $9.99, 1,234.56, Mar-25 and a BOM, sums exactly (0.125 + 0.125 = 0.25) and keeps video lines", async () => {
    const month = "2025-05";
    const text = moved(fixtures.resaved).replaceAll("Mar-25", "May-25");
    const html = await (await upload(month, text, "revenue (1).csv")).text();
    expect(html).toContain("Shortbeat CSV");
    expect(html).toContain("$1,260.30");
    const importId = await commit(month);
    const rows = (await entries(importId)).results;
    expect(rows.find((r) => r.user_id === alpha.id)).toMatchObject({ net_cents: 2549, amount_cents: 1784 });
    const b = rows.find((r) => r.user_id === bravo.id);
    expect(b).toMatchObject({ net_cents: 123481, amount_cents: 86436 });
    expect((await videoLines(b?.id ?? "")).results.map((l) => [l.video_id, l.net_cents])).toEqual([
      ["", 123456],
      ["bravoShortB1", 13],
      ["bravoShortB2", 12],
    ]);
  });
});

describe("any other CSV, through a column mapping", () => {
  it("asks for the columns, previews with them (a fixed channel for a one-channel export) and remembers them for the same header", async () => {
    const month = "2025-06";
    const text = moved(fixtures.studio).replaceAll("2025-03", "2025-06");
    const first = await (await upload(month, text, "Table data.csv")).text();
    expect(first).toContain("Choose the columns of Table data.csv");
    expect(first).toContain("A: Date");
    const uploadId = /name="uploadId" value="([^"]+)"/.exec(first)?.[1] ?? "";
    expect(uploadId).toMatch(/^[0-9a-f-]{36}$/);
    // Neither a person column nor a fixed person: refused, with the field named.
    const missing = await post({ intent: "map", month, uploadId, period: "0", video: "1", amount: "2" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Choose the channel or creator ID column, or enter the ID every row belongs to.");
    const unknown = await post({ intent: "map", month, uploadId, period: "0", video: "1", amount: "2", person: "UCnobody" });
    expect(await unknown.text()).toContain("No channel or creator has the ID UCnobody.");

    const mapped = await (await post({ intent: "map", month, uploadId, period: "0", video: "1", amount: "2", person: ALPHA })).text();
    expect(mapped).toContain("CSV read through a column mapping");
    expect(mapped).toContain("Line 2: A totals row: left out");
    expect(mapped).toContain("$16.93");
    expect(mapped).toContain("16.934567 in the file");
    const importId = await commit(month);
    const [row] = (await entries(importId)).results;
    expect(row).toMatchObject({ user_id: alpha.id, source_id: ALPHA, net_cents: 1693 });
    expect(await count("SELECT count(*) AS n FROM revenue_column_mappings")).toBe(1);
    // The same header again: the remembered columns are offered (a one-channel file still needs its channel).
    const again = await (await upload("2025-07", text.replaceAll("2025-06", "2025-07"), "Table data.csv")).text();
    expect(again).toContain("These are the columns chosen last time");
  });

  it("goes straight to the preview for a header mapped before that names its people", async () => {
    const header = "Period,Channel,Video,Earnings,Ccy";
    const csv = (m: string) => `${header}\n${m}-01,${ALPHA},v1,"1,000.5",USD\n${m}-02,${BRAVO},v2,0.125,USD\n`;
    const first = await (await upload("2025-08", csv("2025-08"))).text();
    const uploadId = /name="uploadId" value="([^"]+)"/.exec(first)?.[1] ?? "";
    expect(first).toContain("Choose the columns");
    const mapped = await (await post({ intent: "map", month: "2025-08", uploadId, period: "0", channel: "1", video: "2", amount: "3", currency: "4" })).text();
    expect(mapped).toContain("$1,000.63"); // 1000.625, half up
    const second = await (await upload("2025-09", csv("2025-09"))).text();
    expect(second).toContain("Columns as remembered for this header");
    expect(second).toContain("Commit import");
  });
});

describe("months, empty files, discarded previews", () => {
  it("refuses the current month and later ones, and offers the last full month by default", async () => {
    const now = new Date();
    for (const month of [monthOf(now), addMonths(monthOf(now), 1)]) {
      const res = await upload(month, `month,channel_id,creator_id,video_id,net_revenue,currency\n${month},${ALPHA},,,1.00,USD\n`);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("is not over yet");
      expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE month = ?", month)).toBe(0);
      expect(await count("SELECT count(*) AS n FROM revenue_months WHERE month = ?", month)).toBe(0);
    }
    const page = await (await fetchApp("/admin/payments", withCookie(admin.cookie))).text();
    expect(page).toContain(`max="${lastFullMonth(now)}"`);
    expect(page).toContain(`value="${lastFullMonth(now)}"`);
  });

  it("says a header-only file has no rows", async () => {
    const res = await upload("2025-10", "month,channel_id,creator_id,video_id,net_revenue,currency\r\n");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The file has no rows");
    expect(html).not.toContain("Rows 1");
  });

  it("a discarded preview leaves no month behind", async () => {
    const month = "2025-11";
    await upload(month, `month,channel_id,creator_id,video_id,net_revenue,currency\n${month},${ALPHA},,,1.00,USD\n`);
    const s = await staged(month);
    expect(await outcome(await post({ intent: "discard", importId: s?.id ?? "" }))).toBe("→/admin/payments");
    expect(await count("SELECT count(*) AS n FROM revenue_months WHERE month = ?", month)).toBe(0);
    expect(await (await fetchApp("/admin/payments", withCookie(admin.cookie))).text()).not.toContain("Not imported");
  });
});
