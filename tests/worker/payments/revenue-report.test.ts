// A revenue report of any size (issue 45 §1, docs/decisions/0334): read from R2 in byte ranges by
// the RevenueImportWorkflow, summed in D1, then matched, priced and staged as the small-file import
// does. A file cut across ranges (lines split mid-way, CRLF, quoted fields with commas, quotes and
// line breaks) stages exactly what today's parser stages; a range read twice adds nothing twice; the
// same file again is recognised; only admins can upload or start one.
import { env } from "cloudflare:workers";
import { introspectWorkflowInstance } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, ORIGIN } from "../helpers";
import { earlierKeysQuery, readReportRange } from "~/modules/payments/import-report-read.server";
import { FINISH_SLICE, finishSteps, type StepRunner } from "~/modules/payments/import-report-stage.server";
import { d1CallRows } from "../d1-calls";
import { reportOf } from "./report-rows";
import { importReportObject } from "~/modules/payments/import-report.server";
import { actorOf } from "~/modules/accounts/accounts.server";

let admins: TestUser[];
let creators: TestUser[];
const channels: string[] = [];

beforeAll(async () => {
  admins = await Promise.all([createUser("admin"), createUser("admin"), createUser("admin"), createUser("admin")]);
  creators = await Promise.all([createUser("creator"), createUser("creator"), createUser("creator")]);
  for (const c of creators) {
    const channelId = `UCrep${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    channels.push(channelId);
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Report Channel')")
      .bind(crypto.randomUUID(), c.id, channelId)
      .run();
  }
}, 120_000);

/** A YouTube content-owner report of `month` (YYYYMM): daily rows, CRLF, a quoted title column with commas, quotes and line breaks. */
function youtubeReport(month: string, days = 28, countries = ["US", "GB"]): string {
  const rows = ["date,channel_id,video_id,video_title,country_code,estimated_partner_revenue,ad_impressions"];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let d = 1; d <= days; d++) {
    for (const [ci, ch] of channels.entries()) {
      for (let v = 0; v < 3; v++) {
        for (const country of countries) {
          const title = v === 0 ? `"Short ${ci}-${v}, the ""best""\nsecond line"` : v === 1 ? `"Plain, with comma ${ci}"` : `Short ${ci}-${v}`;
          const amount = `${next() % 5}.${String(next() % 1_000_000).padStart(6, "0")}`;
          rows.push(`${month}${String(d).padStart(2, "0")},${ch},vid${ci}x${v},${title},${country},${amount},${next() % 5000}`);
        }
      }
    }
  }
  return `${rows.join("\r\n")}\r\n`;
}

async function stagedTotals(importId: string) {
  const imp = await env.DB.prepare("SELECT net_cents, amount_cents, entry_count, exact_total, rounding_remainder, row_count FROM revenue_imports WHERE id = ?")
    .bind(importId)
    .first();
  const entries = await env.DB.prepare(
    "SELECT user_id, source_kind, source_id, net_cents, amount_cents, share_bp FROM ledger_entries WHERE import_id = ? ORDER BY user_id, source_kind, source_id",
  )
    .bind(importId)
    .all();
  const lines = await env.DB.prepare(
    "SELECT e.user_id, e.source_id, v.video_id, v.net_cents, v.amount_cents FROM ledger_video_lines v JOIN ledger_entries e ON e.id = v.entry_id WHERE e.import_id = ? ORDER BY e.user_id, e.source_id, v.video_id",
  )
    .bind(importId)
    .all();
  return { imp, entries: entries.results, lines: lines.results };
}

/** Today's path: the whole file posted to /admin/payments and parsed in the request. */
async function stageToday(admin: TestUser, month: string, csv: string): Promise<string> {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], "report.csv", { type: "text/csv" }));
  const res = await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
  expect(res.status).toBe(200);
  const row = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' AND created_by = ?")
    .bind(month, admin.id)
    .first<{ id: string }>();
  return row?.id ?? "";
}

async function readAll(reportId: string, range: number, twice = false) {
  let steps = 0;
  for (;;) {
    const [r] = await Promise.all([readReportRange(reportId, range), ...(twice ? [readReportRange(reportId, range)] : [])]);
    steps += 1;
    if (r.done) return steps;
    expect(steps).toBeLessThan(10_000);
  }
}

/** The Workflow's steps after the last range, each run once as it runs them; or each twice in a row (an answer lost, the step retried). */
const once: StepRunner = (_name, work) => work();
const twiceInARow: StepRunner = async (_name, work) => {
  await work();
  return work();
};
const finish = (reportId: string, run = once, slice?: number) => finishSteps(reportId, run, slice);

const workRows = (id: string) =>
  env.DB.prepare(
    "SELECT (SELECT count(*) FROM revenue_report_sums WHERE report_id = ?1) + (SELECT count(*) FROM revenue_report_keys WHERE report_id = ?1) AS n",
  )
    .bind(id)
    .first<number>("n");

const reportRow = (id: string) => env.DB.prepare("SELECT * FROM revenue_reports WHERE id = ?").bind(id).first<Record<string, unknown>>();

describe("a report read in ranges", () => {
  it("stages exactly what today's parser stages, with lines cut across ranges, CRLF and quoted fields", async () => {
    const month = "2024-01";
    const csv = youtubeReport("202401");
    const [a, b] = admins as [TestUser, TestUser];
    const today = await stageToday(a, month, csv);
    expect(today).not.toBe("");
    const id = await reportOf(b, month, csv);
    // 997 bytes: far smaller than a row group, so nearly every range ends inside a line or a quoted title.
    const steps = await readAll(id, 997);
    expect(steps).toBeGreaterThan(20);
    const done = await finish(id);
    expect(done.status).toBe("staged");
    const ranged = await stagedTotals(done.importId ?? "");
    const whole = await stagedTotals(today);
    expect(ranged.imp).toEqual(whole.imp);
    expect(ranged.entries).toEqual(whole.entries);
    expect(ranged.lines).toEqual(whole.lines);
    expect(ranged.entries.length).toBe(3);
    const report = await reportRow(id);
    expect(report).toMatchObject({ rows_read: whole.imp?.row_count, rows_matched: whole.imp?.row_count, problem_count: 0 });
    // The sums and keys are gone once staged.
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM revenue_report_sums WHERE report_id = ?) + (SELECT count(*) FROM revenue_report_keys WHERE report_id = ?) AS n",
    )
      .bind(id, id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("lists the same problems as today's parser: another month, a duplicate, an unknown channel", async () => {
    const month = "2024-04";
    const lines = youtubeReport("202404", 3).split("\r\n");
    const dup = lines[5] ?? "";
    lines.splice(20, 0, dup); // a duplicate of line 6
    lines.splice(30, 0, `20240501,${channels[0]},vidX,Other month,US,1.000000,1`);
    lines.splice(40, 0, `20240402,UCnobody000000000000000,vidY,Unknown,US,2.000000,1`);
    const csv = lines.join("\r\n");
    const [, , c] = admins as [TestUser, TestUser, TestUser];
    const form = new FormData();
    form.set("intent", "preview");
    form.set("month", month);
    form.set("file", new File([csv], "report.csv", { type: "text/csv" }));
    const res = await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: c.cookie }, body: form });
    const page = (await res.text()).replaceAll("<!-- -->", "");
    const id = await reportOf(c, month, csv);
    await readAll(id, 613);
    expect((await finish(id)).status).toBe("problems");
    const problems = await env.DB.prepare("SELECT line, reason FROM revenue_report_problems WHERE report_id = ? ORDER BY line")
      .bind(id)
      .all<{ line: number; reason: string }>();
    expect(problems.results.map((p) => p.line)).toEqual([21, 31, 41]);
    for (const p of problems.results) expect(page).toContain(p.reason);
    expect((await reportRow(id))?.problem_count).toBe(3);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM revenue_imports WHERE month = ?").bind(month).first("n")).toBe(0);
  });

  it("a range read twice at once (a retried step) adds its amounts once", async () => {
    const month = "2024-02";
    const csv = youtubeReport("202402", 10);
    const [a, b] = admins as [TestUser, TestUser];
    const today = await stageToday(a, month, csv);
    const id = await reportOf(b, month, csv);
    await readAll(id, 1499, true);
    const done = await finish(id);
    expect(done.status).toBe("staged");
    const ranged = await stagedTotals(done.importId ?? "");
    const whole = await stagedTotals(today);
    expect(ranged.imp).toEqual(whole.imp);
    expect(ranged.entries).toEqual(whole.entries);
    // Finishing again changes nothing (a retried last step).
    expect(await finish(id)).toEqual(done);
  });

  it("a retried step whose keys were written before it failed (its last batch not run) adds its amounts once, with no false duplicates", async () => {
    const month = "2024-05";
    const csv = youtubeReport("202405", 10);
    const [a, b, c] = admins as [TestUser, TestUser, TestUser];
    const today = await stageToday(a, month, csv);
    // Every key the file's ranges write, as attempts that died after their keys and before their
    // guarded batch (decision 0336) leave them: the same keys, the same lines, under a second report.
    const first = await reportOf(b, month, csv);
    await readAll(first, 1499);
    const id = await reportOf(c, month, csv);
    await env.DB.prepare("INSERT INTO revenue_report_keys (report_id, h1, h2, line) SELECT ?, h1, h2, line FROM revenue_report_keys WHERE report_id = ?")
      .bind(id, first)
      .run();
    await readAll(id, 1499);
    expect((await reportRow(id))?.problem_count).toBe(0);
    const done = await finish(id);
    expect(done.status).toBe("staged");
    const ranged = await stagedTotals(done.importId ?? "");
    const whole = await stagedTotals(today);
    expect(ranged.imp).toEqual(whole.imp);
    expect(ranged.entries).toEqual(whole.entries);
  });

  it("finds an earlier range's keys through the keys' primary key, one lookup per row (not a scan of the report's keys per row)", async () => {
    const [admin] = admins as [TestUser];
    const id = await reportOf(admin, "2024-03", youtubeReport("202403", 1));
    // 20,000 keys of earlier ranges; a range's 5,000 rows of which every other one is a duplicate.
    const keys = Array.from({ length: 20_000 }, (_, i) => [i * 7919 + 1, i * 104_729 + 2, i + 2]);
    await env.DB.prepare(
      "INSERT INTO revenue_report_keys (report_id, h1, h2, line) SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)",
    )
      .bind(id, JSON.stringify(keys))
      .run();
    const probe = Array.from({ length: 5_000 }, (_, i) => (i % 2 === 0 ? [keys[i * 4]?.[0], keys[i * 4]?.[1]] : [i, i]));
    const query = earlierKeysQuery(id, JSON.stringify(probe));
    const { sql: text, params } = query.toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
      .bind(...params)
      .all<{ id: number; parent: number; detail: string }>();
    const steps = plan.results.map((r) => r.detail);
    // The JSON array outside, each of its keys looked up by (report_id, h1, h2) inside.
    expect(steps[0]).toMatch(/^SCAN j VIRTUAL TABLE/);
    expect(steps[1]).toMatch(/^SEARCH revenue_report_keys USING INDEX .* \(report_id=\? AND h1=\? AND h2=\?\)$/);
    const found = await query.all();
    expect(found).toHaveLength(2_500);
    expect(found.find((r) => r.h1 === keys[8]?.[0])?.line).toBe(10);
  });
});

describe("the upload and the Workflow", () => {
  function post(user: TestUser, fields: Record<string, string | File>) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return fetchApp("/admin/payments/report", { method: "POST", headers: { Origin: ORIGIN, Cookie: user.cookie }, body: form });
  }

  async function uploadAndRun(admin: TestUser, month: string, csv: string) {
    const file = new File([csv], "month.csv", { type: "text/csv" });
    const start = await post(admin, { intent: "start", month, name: file.name, size: String(file.size), chunk: file });
    expect(start.status).toBe(200);
    const { reportId } = (await start.json()) as { reportId: string };
    await using instance = await introspectWorkflowInstance(env.REVENUE_IMPORT, reportId);
    const complete = await post(admin, { intent: "complete", reportId });
    expect(complete.status).toBe(200);
    await instance.waitForStatus("complete");
    return reportId;
  }

  it("an admin's upload is read by the Workflow and staged; the same file again is recognised", async () => {
    const month = "2024-03";
    const csv = youtubeReport("202403", 5);
    const [, , , d] = admins as [TestUser, TestUser, TestUser, TestUser];
    const first = await uploadAndRun(d, month, csv);
    expect(await reportRow(first)).toMatchObject({ status: "staged" });
    const progress = await fetchApp(`/admin/payments/report?id=${first}`, { headers: { Cookie: d.cookie } });
    const body = (await progress.json()) as { report: { status: string; rowsRead: number; preview: { importId: string } } };
    expect(body.report.status).toBe("staged");
    expect(body.report.rowsRead).toBe(5 * 3 * 3 * 2);
    expect(body.report.preview.importId).toBeTruthy();

    // The admin's page shows the staged preview to commit, with the counts read.
    const page = async () => (await (await fetchApp("/admin/payments", { headers: { Cookie: d.cookie } })).text()).replaceAll("<!-- -->", "");
    const staged = await page();
    expect(staged).toContain("month.csv (March 2024)");
    expect(staged).toContain("90 rows read, 90 matched, 0 problems");
    expect(staged).toContain("Commit import");

    const second = await uploadAndRun(d, month, csv);
    expect(await page()).toContain("This file was already imported (month.csv for March 2024");
    expect(await reportRow(second)).toMatchObject({ status: "duplicate", duplicate_of: first });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM revenue_imports WHERE month = ? AND status = 'staged'").bind(month).first("n")).toBe(1);
  });

  // 50 countries: 3 channels × 3 videos × 28 days × 50 = 12,600 rows, so the report holds 12,600 keys.
  const COUNTRIES = Array.from({ length: 50 }, (_, i) => `C${String.fromCharCode(65 + (i % 26))}${i}`);
  /** Rows one D1 call may read or write (0344: the largest slice, 5,000, and its index writes). */
  const MOST_ROWS_A_CALL = 10_000;

  it("no D1 call of a report's import touches more than 10,000 rows: its 12,600 keys go in slices, and it stages what today's parser stages", async () => {
    const month = "2024-08";
    const csv = youtubeReport("202408", 28, COUNTRIES);
    const [a, , , d] = admins as [TestUser, TestUser, TestUser, TestUser];
    const today = await stageToday(a, month, csv);
    let reportId = "";
    const calls = await d1CallRows(async () => {
      reportId = await uploadAndRun(d, month, csv);
    });
    const report = await reportRow(reportId);
    expect(report).toMatchObject({ status: "staged", rows_read: 12_600, problem_count: 0 });
    const ranged = await stagedTotals(String(report?.import_id));
    const whole = await stagedTotals(today);
    expect(ranged.imp).toEqual(whole.imp);
    expect(ranged.entries).toEqual(whole.entries);
    expect(ranged.lines).toEqual(whole.lines);
    expect(await workRows(reportId)).toBe(0);
    // D1's own counts of every call the upload, the range steps and the last steps made.
    expect(calls.length).toBeGreaterThan(10);
    const heavy = calls.filter((c) => c.rowsRead > MOST_ROWS_A_CALL || c.rowsWritten > MOST_ROWS_A_CALL);
    expect(heavy.map((c) => `${c.rowsRead} read, ${c.rowsWritten} written: ${c.sql.slice(0, 160)}`)).toEqual([]);
  });

  it("a slice step retried, or a stage step that died before its last write, adds and removes nothing", async () => {
    const month = "2024-09";
    const csv = youtubeReport("202409", 10);
    const [a, b, c] = admins as [TestUser, TestUser, TestUser];
    const today = await stageToday(a, month, csv);
    // Another report, still being read: its keys and sums stay.
    const other = await reportOf(c, "2024-10", youtubeReport("202410", 3));
    await readReportRange(other, 4000);
    const otherRows = await workRows(other);
    expect(otherRows).toBeGreaterThan(0);

    const id = await reportOf(b, month, csv);
    await readAll(id, 1499);
    // A first stage step that wrote its import and entries and died before the report's own update.
    const dieAfterStage: StepRunner = async (name, work) => {
      const result = await work();
      if (name === "stage summary") throw new Error("workerd died");
      return result;
    };
    await expect(finishSteps(id, dieAfterStage, 7)).rejects.toThrow("workerd died");
    const died = { importId: String((await reportRow(id))?.import_id) };
    await env.DB.prepare("UPDATE revenue_reports SET status = 'reading', import_id = NULL, preview = NULL WHERE id = ?").bind(id).run();
    // Then every step again, each one run twice in a row, in slices of 7 rows.
    const done = await finishSteps(id, twiceInARow, 7);
    expect(done.status).toBe("staged");
    expect(done.importId).not.toBe(died.importId);
    const ranged = await stagedTotals(done.importId ?? "");
    const whole = await stagedTotals(today);
    expect(ranged.imp).toEqual(whole.imp);
    expect(ranged.entries).toEqual(whole.entries);
    expect(ranged.lines).toEqual(whole.lines);
    // The dead attempt's import is set aside and its entries gone; one staged import of the month by b.
    expect(await env.DB.prepare("SELECT status FROM revenue_imports WHERE id = ?").bind(died.importId).first("status")).toBe("discarded");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?").bind(died.importId).first("n")).toBe(0);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM revenue_imports WHERE month = ? AND status = 'staged' AND created_by = ?").bind(month, b.id).first("n"),
    ).toBe(1);
    expect(await workRows(id)).toBe(0);
    expect(await workRows(other)).toBe(otherRows);
    expect(FINISH_SLICE).toBeLessThanOrEqual(MOST_ROWS_A_CALL);
  });

  it("shows a report being read with its live counts", async () => {
    const [, , , d] = admins as [TestUser, TestUser, TestUser, TestUser];
    const id = await reportOf(d, "2024-07", "date,channel_id,video_id,estimated_partner_revenue\r\n");
    await env.DB.prepare("UPDATE revenue_reports SET rows_read = 123456, rows_matched = 120000, problem_count = 7, next_offset = 10 WHERE id = ?")
      .bind(id)
      .run();
    const html = (await (await fetchApp("/admin/payments", { headers: { Cookie: d.cookie } })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Reading: 123,456 rows read, 120,000 matched, 7 problems");
  });

  it("a creator can neither upload a report nor start one", async () => {
    const [creator] = creators as [TestUser];
    const file = new File(["date,channel_id,video_id,estimated_partner_revenue\r\n"], "x.csv", { type: "text/csv" });
    const start = await post(creator, { intent: "start", month: "2024-05", name: file.name, size: String(file.size), chunk: file });
    expect(start.status).toBe(403);
    const progress = await fetchApp("/admin/payments/report?id=00000000-0000-0000-0000-000000000000", { headers: { Cookie: creator.cookie } });
    expect(progress.status).toBe(403);
    await env.MEDIA.put("imports/bench.csv", "x");
    const user = await env.DB.prepare("SELECT * FROM users WHERE id = ?").bind(creator.id).first();
    expect(user).toBeTruthy();
    await expect(
      importReportObject(
        actorOf({
          id: creator.id,
          email: "c@x",
          isAdmin: false,
          approvalStatus: "approved",
          isBanned: false,
          isMusicPartner: false,
          hasActiveAgency: false,
        } as never),
        { month: "2024-05", objectKey: "imports/bench.csv" },
      ),
    ).rejects.toThrow(/not allowed/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM revenue_reports WHERE created_by = ?").bind(creator.id).first("n")).toBe(0);
  });
});
