// A revenue report's stage in bounded steps (issue 45 §1, docs/decisions/0345, 0350): pages of sums,
// slices of people, the month rounded once across them, the clip split and the referral bonus summed
// over slices. Staged exactly as today's small-file import (priceImport over the same rows) stages
// it, with the slice sizes made tiny (2 people a slice, 3 sums a page) so every boundary is crossed;
// a step run twice adds nothing; no step reads more than a bounded number of rows; problems as today.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { clearSettingsCache } from "~/platform/settings.server";
import { failReport, readReportRange } from "~/modules/payments/import-report-read.server";
import { finishSteps, type StepRunner } from "~/modules/payments/import-report-stage.server";
import type { StageSizes } from "~/modules/payments/import-slices-common.server";
import { createUser, type TestUser } from "../../factories/users";
import { d1CallRows } from "../d1-calls";
import { reportOf } from "./report-rows";
import { fetchApp, ORIGIN } from "../helpers";

let admins: TestUser[];
/** Creators sorted by user id (slices go by id), each with one channel. */
let people: (TestUser & { channel: string })[];
let referrer: TestUser;
const TINY: StageSizes = { page: 3, slicePeople: 2, sliceRows: 100 };
const CLIP_VIDEO = `clipv${crypto.randomUUID().slice(0, 6)}`;

async function setBonus(bp: number) {
  await env.DB.prepare("INSERT INTO app_settings (key, value) VALUES ('referral_bonus_bp', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
    .bind(JSON.stringify(bp))
    .run();
  clearSettingsCache();
}

beforeAll(async () => {
  admins = await Promise.all(Array.from({ length: 8 }, () => createUser("admin")));
  referrer = await createUser("creator");
  const made = await Promise.all(Array.from({ length: 7 }, () => createUser("creator")));
  people = [];
  for (const c of made) {
    const channel = `UCsl${crypto.randomUUID().replaceAll("-", "").slice(0, 18)}`;
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Slice Channel')")
      .bind(crypto.randomUUID(), c.id, channel)
      .run();
    people.push({ ...c, channel });
  }
  people.sort((a, b) => (a.id < b.id ? -1 : 1));
  const first = people[0] as TestUser;
  const last = people[people.length - 1] as TestUser;
  // A clip of the first person (by id) whose clipper is the last: two slices apart.
  await env.DB.prepare(
    "INSERT INTO clips (id, creator_user_id, clipper_user_id, platform, url, video_id, status, approved_at) VALUES (?, ?, ?, 'youtube_shorts', ?, ?, 'approved', '2020-01-01T00:00:00.000Z')",
  )
    .bind(crypto.randomUUID(), first.id, last.id, `https://www.youtube.com/shorts/${CLIP_VIDEO}`, CLIP_VIDEO)
    .run();
  // Two people in different slices referred by the same referrer, in their first year.
  for (const p of [people[1], people[5]] as TestUser[])
    await env.DB.prepare("UPDATE profiles SET referred_by = ?, term_started_at = '2022-11-10T00:00:00.000Z' WHERE user_id = ?").bind(referrer.id, p.id).run();
}, 120_000);

/**
 * A YouTube content-owner report of `month` (YYYYMM): daily rows of `videos` videos a channel; the first
 * and last person's channels also carry the clip's video.
 */
function report(month: string, days: number, videos: number): string {
  const rows = ["date,channel_id,video_id,video_title,country_code,estimated_partner_revenue,ad_impressions"];
  let seed = 11;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let d = 1; d <= days; d++) {
    const day = `${month}${String(d).padStart(2, "0")}`;
    for (const [pi, p] of people.entries()) {
      for (let v = 0; v < videos; v++) {
        // Every person's rows alike: their sums have equal sub-cent remainders, so who gets the
        // month's left-over cents goes by user id alone (roundMonth's tie order).
        const amount = `${(d * 7 + v * 3) % 5}.${String((d * 7919 + v * 104729) % 1_000_000).padStart(6, "0")}`;
        rows.push(`${day},${p.channel},v${v},Short ${v},US,${amount},${next() % 5000}`);
      }
      // The clip's rows in whole cents (the remainders stay tied).
      if (pi === 0 || pi === people.length - 1)
        rows.push(
          `${day},${p.channel},${CLIP_VIDEO},The clip,US,1.${String(d * 37 + pi)
            .padStart(2, "0")
            .slice(-2)},7`,
        );
    }
  }
  return `${rows.join("\r\n")}\r\n`;
}

/** Today's path: the whole file posted to /admin/payments, parsed, priced (priceImport) and staged in the request. */
async function stageToday(admin: TestUser, month: string, csv: string): Promise<{ importId: string; page: string }> {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], "report.csv", { type: "text/csv" }));
  const res = await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
  expect(res.status).toBe(200);
  const page = (await res.text()).replaceAll("<!-- -->", "");
  const row = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' AND created_by = ?")
    .bind(month, admin.id)
    .first<{ id: string }>();
  return { importId: row?.id ?? "", page };
}

/** A report row for the object put in R2, read to its end in ranges of `range` bytes (the range steps). */
async function readReport(admin: TestUser, month: string, csv: string, range = 4001): Promise<string> {
  const id = await reportOf(admin, month, csv);
  for (let i = 0; i < 10_000; i++) if ((await readReportRange(id, range)).done) return id;
  throw new Error("the report was not read to its end");
}

async function stagedTotals(importId: string) {
  const imp = await env.DB.prepare(
    "SELECT net_cents, amount_cents, entry_count, exact_total, rounding_remainder, row_count, share_bp FROM revenue_imports WHERE id = ?",
  )
    .bind(importId)
    .first();
  const entries = await env.DB.prepare(
    "SELECT user_id, source_kind, source_id, net_cents, amount_cents, share_bp, note FROM ledger_entries WHERE import_id = ? ORDER BY user_id, source_kind, source_id",
  )
    .bind(importId)
    .all<{ user_id: string; source_kind: string; source_id: string; net_cents: number; amount_cents: number }>();
  const lines = await env.DB.prepare(
    "SELECT e.user_id, e.source_id, v.video_id, v.net_cents, v.amount_cents FROM ledger_video_lines v JOIN ledger_entries e ON e.id = v.entry_id WHERE e.import_id = ? ORDER BY e.user_id, e.source_id, v.video_id",
  )
    .bind(importId)
    .all();
  return { imp, entries: entries.results, lines: lines.results };
}

const reportRow = (id: string) => env.DB.prepare("SELECT * FROM revenue_reports WHERE id = ?").bind(id).first<Record<string, unknown>>();
const workRows = (id: string) =>
  env.DB.prepare(
    `SELECT (SELECT count(*) FROM revenue_report_sums WHERE report_id = ?1) + (SELECT count(*) FROM revenue_report_leaves WHERE report_id = ?1)
          + (SELECT count(*) FROM revenue_report_people WHERE report_id = ?1) + (SELECT count(*) FROM revenue_report_tallies WHERE report_id = ?1) AS n`,
  )
    .bind(id)
    .first<number>("n");

/** Each step run once, its name recorded. */
function recording(names: string[]): StepRunner {
  return (name, work) => {
    names.push(name);
    return work();
  };
}

describe("a report's stage in slices of people", () => {
  it("stages over several slices exactly what today's import stages: the month rounded once, a clip whose creator and clipper are two slices apart, a referral across slices", async () => {
    await setBonus(1000);
    try {
      const month = "2023-05";
      const csv = report("202305", 9, 3);
      const [a, b] = admins as [TestUser, TestUser];
      const today = await stageToday(a, month, csv);
      expect(today.importId).not.toBe("");
      const id = await readReport(b, month, csv);
      const names: string[] = [];
      const done = await finishSteps(id, recording(names), 7, "", TINY);
      expect(done.status).toBe("staged");
      const sliced = await stagedTotals(done.importId ?? "");
      const whole = await stagedTotals(today.importId);
      expect(sliced.imp).toEqual(whole.imp);
      expect(sliced.entries).toEqual(whole.entries);
      expect(sliced.lines).toEqual(whole.lines);
      // Seven people in slices of two: four price steps (the last finds the end); pages of three sums.
      expect(names.filter((n) => n.startsWith("stage price")).length).toBeGreaterThanOrEqual(4);
      expect(names.filter((n) => n.startsWith("stage match")).length).toBeGreaterThanOrEqual(2);
      // What crosses the slices is there: both sides of the clip, one referral entry for two referred people.
      const kinds = (k: string) => sliced.entries.filter((e) => e.source_kind === k);
      expect(
        kinds("clip")
          .map((e) => e.user_id)
          .sort(),
      ).toEqual([people[0]?.id, people[people.length - 1]?.id].sort());
      const referral = kinds("referral");
      expect(referral).toHaveLength(1);
      const netOf = (userId: string) =>
        sliced.entries.filter((e) => e.user_id === userId && (e.source_kind === "music" || e.source_kind === "clip")).reduce((s, e) => s + e.net_cents, 0);
      expect(referral[0]).toMatchObject({ user_id: referrer.id, net_cents: netOf(people[1]?.id ?? "") + netOf(people[5]?.id ?? "") });
      // The month's rounding left cents over, given across slices (not every person got a whole-cent share).
      expect(Number(whole.imp?.rounding_remainder)).not.toBe(0);
      // The preview says what today's says.
      const preview = JSON.parse(String((await reportRow(id))?.preview));
      expect(preview).toMatchObject({ entryCount: whole.imp?.entry_count, netCents: whole.imp?.net_cents, amountCents: whole.imp?.amount_cents });
      expect(today.page).toContain(`${preview.entryCount} `);
      expect(await workRows(id)).toBe(0);
    } finally {
      await setBonus(0);
    }
  });

  it("a step run twice in a row (its answer lost, retried) adds nothing: the same entries, lines and totals", async () => {
    await setBonus(1000);
    try {
      const month = "2023-06";
      const csv = report("202306", 5, 2);
      const [, , c, d] = admins as [TestUser, TestUser, TestUser, TestUser];
      const today = await stageToday(c, month, csv);
      const id = await readReport(d, month, csv);
      const twice: StepRunner = async (_name, work) => {
        await work();
        return work();
      };
      const done = await finishSteps(id, twice, 7, "", TINY);
      expect(done.status).toBe("staged");
      const sliced = await stagedTotals(done.importId ?? "");
      const whole = await stagedTotals(today.importId);
      expect(sliced.imp).toEqual(whole.imp);
      expect(sliced.entries).toEqual(whole.entries);
      expect(sliced.lines).toEqual(whole.lines);
      expect(
        await env.DB.prepare("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?")
          .bind(done.importId ?? "")
          .first("n"),
      ).toBe(whole.entries.length);
      expect(await workRows(id)).toBe(0);
    } finally {
      await setBonus(0);
    }
  });

  it("no step of the stage reads more than a bounded number of rows (a page of sums, a slice of people), however many sums the report has", async () => {
    const month = "2023-07";
    // 7 people × 40 videos: 287 sums of the month (the clip's video too).
    const csv = report("202307", 3, 40);
    const [, , , , e, f] = admins as TestUser[] as [TestUser, TestUser, TestUser, TestUser, TestUser, TestUser];
    const today = await stageToday(e as TestUser, month, csv);
    const id = await readReport(f as TestUser, month, csv, 20_000);
    const sums = await env.DB.prepare("SELECT count(*) AS n FROM revenue_report_sums WHERE report_id = ?").bind(id).first<number>("n");
    expect(sums).toBeGreaterThan(280);
    const perStep: { name: string; rowsRead: number }[] = [];
    const measured: StepRunner = async (name, work) => {
      const out: Promise<unknown>[] = [];
      const calls = await d1CallRows(async () => {
        const running = work();
        out.push(running);
        await running;
      });
      perStep.push({ name, rowsRead: calls.reduce((s, c) => s + c.rowsRead, 0) });
      return out[0] as ReturnType<typeof work>;
    };
    const done = await finishSteps(id, measured, 7, "", { page: 3, slicePeople: 2, sliceRows: 4 });
    expect(done.status).toBe("staged");
    const sliced = await stagedTotals(done.importId ?? "");
    const whole = await stagedTotals(today.importId);
    expect(sliced.imp).toEqual(whole.imp);
    expect(sliced.entries).toEqual(whole.entries);
    expect(sliced.lines).toEqual(whole.lines);
    const stage = perStep.filter((s) => s.name.startsWith("stage"));
    // A step reads at most five pages of three sums (and their lookups), or one person's 41 leaves:
    // far fewer than the report's 287 sums, which the single stage step of 0344 read at once.
    const MOST_ROWS_A_STEP = 150;
    expect(stage.filter((s) => s.rowsRead > MOST_ROWS_A_STEP).map((s) => `${s.name}: ${s.rowsRead} rows read`)).toEqual([]);
    expect(stage.length).toBeGreaterThan(10);
  });

  it("a stage whose step fails for good (the Workflow's retries spent) sets its begun import aside: its entries and the work rows go", async () => {
    const month = "2023-09";
    const csv = report("202309", 3, 2);
    const [, , , , , , , h] = admins as TestUser[];
    const id = await readReport(h as TestUser, month, csv);
    const dies: StepRunner = async (name, work) => {
      if (name === "stage price 2") throw new Error("retries spent");
      return work();
    };
    await expect(finishSteps(id, dies, 7, "", TINY)).rejects.toThrow("retries spent");
    const begun = String((await reportRow(id))?.import_id);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?").bind(begun).first("n")).toBeGreaterThan(0);
    // The Workflow's catch: the report failed, then the last steps again under "failed: ".
    await failReport(id, "The report could not be read to its end. Upload it again.");
    expect((await finishSteps(id, recording([]), 7, "failed: ", TINY)).status).toBe("failed");
    expect(await env.DB.prepare("SELECT status FROM revenue_imports WHERE id = ?").bind(begun).first("status")).toBe("discarded");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?").bind(begun).first("n")).toBe(0);
    expect(await workRows(id)).toBe(0);
  });

  it("lists the same problems as today's import: a row of another month, an unknown channel — over pages of three sums", async () => {
    const month = "2023-08";
    const lines = report("202308", 2, 2).split("\r\n");
    lines.splice(7, 0, `20230901,${people[0]?.channel},vidX,Other month,US,1.000000,1`);
    lines.splice(12, 0, `20230802,UCnobody000000000000000,vidY,Unknown,US,2.000000,1`);
    lines.splice(15, 0, `20230803,UCnobody000000000000000,vidY,Unknown,US,3.000000,1`);
    const csv = lines.join("\r\n");
    const [, , , , , , g, h] = admins as TestUser[];
    const today = await stageToday(g as TestUser, month, csv);
    expect(today.importId).toBe("");
    const id = await readReport(h as TestUser, month, csv, 613);
    expect((await finishSteps(id, recording([]), 7, "", TINY)).status).toBe("problems");
    const problems = await env.DB.prepare("SELECT line, reason FROM revenue_report_problems WHERE report_id = ? ORDER BY line")
      .bind(id)
      .all<{ line: number; reason: string }>();
    // The other month's row at its line; the unknown channel's two rows as one group, at its first line.
    expect(problems.results.map((p) => p.line)).toEqual([8, 13]);
    for (const p of problems.results) expect(today.page).toContain(p.reason);
    const row = await reportRow(id);
    expect(row?.problem_count).toBe(3);
    const preview = JSON.parse(String(row?.preview));
    expect(preview).toMatchObject({ matched: 0, problemCount: 3, importId: null });
    expect(preview.problems.map((p: { line: number }) => p.line)).toEqual([8, 13]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM revenue_imports WHERE month = ?").bind(month).first("n")).toBe(0);
    expect(await workRows(id)).toBe(0);
  });
});
