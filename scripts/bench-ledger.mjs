#!/usr/bin/env node
// Money ledger benchmark on workerd (issue 14): N approved creators, each with a linked channel, go
// straight into a fresh local state (through wrangler's getPlatformProxy, as bench-notifications
// does); the BUILT Worker is then served by workerd itself (scripts/bench-server.mjs) and an admin
// imports M months of platform revenue through /admin/payments exactly as in the browser: preview
// (parse the CSV, match every row, compute each share and stage the entries) then commit (the import
// goes live in one statement), then funds received and finalize. Prints the time per month and
// per step, measured from Node around each request (so it includes the HTTP hop, which is small).
// Then (issue 29) one more month from a file shaped like YouTube's content-owner revenue report:
// daily rows per channel, video and country with six-decimal amounts, summed to the month exactly
// and rounded once. Figures only; asserts nothing. Target: ≤ 2 s per 10,000 rows.
//   npm run bench:ledger [-- --creators 10000 --months 12 --daily-rows 10000 --port 4236]
import { adminSession, benchArgs, insertApprovedUsers, pct, withStateD1 } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";

const { values, base: _base } = benchArgs({
  creators: { type: "string", default: "10000" },
  months: { type: "string", default: "12" },
  "daily-rows": { type: "string", default: "10000" },
  port: { type: "string", default: "4236" },
});
const N = Number(values.creators);
const MONTHS = Number(values.months);
const DAILY_ROWS = Number(values["daily-rows"]);
const TARGET_MS = 2000;
const log = (...args) => console.error("[bench:ledger]", ...args);

// ---------------------------------------------------------------------------------------------
// 1. State: N approved creators with one channel each (half the rows name the channel, half the creator), an admin session
// ---------------------------------------------------------------------------------------------
let prepared;
async function addCreators(stateDir) {
  await withStateD1(stateDir, async (db) => {
    const now = Date.now();
    const creators = await insertApprovedUsers(db, {
      count: N,
      email: (i) => `ledger-${i}@bench.test`,
      prefix: "L",
      name: "Ledger Creator",
      sessions: false,
      more: (i) => ({ channel: `UCledger${String(i).padStart(8, "0")}` }),
      extra: (db, json) => [
        db
          .prepare(
            `INSERT INTO youtube_channels (id, user_id, channel_id, channel_title)
             SELECT json_extract(value, '$.id'), json_extract(value, '$.id'), json_extract(value, '$.channel'), 'Ledger Channel' FROM json_each(?)`,
          )
          .bind(json),
      ],
      now,
    });
    prepared = { creators, adminToken: await adminSession(db, now) };
  });
}

// ---------------------------------------------------------------------------------------------
// 2. One month: preview (parse, match, compute, stage) → commit → funds received → finalize
// ---------------------------------------------------------------------------------------------
function csvFor(month, creators, m) {
  const lines = ["month,channel_id,creator_id,video_id,net_revenue,currency"];
  creators.forEach((c, i) => {
    const cents = 100 + ((i * 7919 + m * 104729) % 500_000); // $1.00 … $5,001.00, integer cents
    const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    lines.push(i % 2 === 0 ? `${month},${c.channel},,,${amount},USD` : `${month},,${c.creator_id},,${amount},USD`);
  });
  return `${lines.join("\n")}\n`;
}

/**
 * A month of the YouTube content-owner revenue report: `rows` daily rows (date YYYYMMDD, channel,
 * video, claim, uploader, country, estimated_partner_revenue with six decimals, other metrics).
 */
function youtubeCsvFor(month, creators, rows) {
  const [y, m] = month.split("-").map(Number);
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const countries = ["US", "GB", "IN", "DE", "BR"];
  const lines = [
    "date,channel_id,video_id,claimed_status,uploader_type,country_code,estimated_partner_revenue,estimated_partner_ad_revenue,estimated_youtube_ad_revenue,ad_impressions",
  ];
  for (let i = 0; i < rows; i++) {
    // Each (channel, video, country) has a row per day: 5 countries × `days` days per video.
    const day = (i % days) + 1;
    const series = Math.floor(i / days);
    const country = countries[series % countries.length];
    const video = Math.floor(series / countries.length);
    const c = creators[video % creators.length];
    const micros = 1 + ((i * 7919 + video * 104729) % 3_000_000);
    const amount = `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, "0")}`;
    lines.push(
      `${month.replace("-", "")}${String(day).padStart(2, "0")},${c.channel},v${video},claimed,thirdParty,${country},${amount},${amount},0.000000,${i % 5000}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

async function post(base, cookie, body) {
  const started = performance.now();
  const res = await fetch(`${base}/admin/payments`, { method: "POST", headers: { Cookie: cookie, Origin: base }, body, redirect: "manual" });
  const text = await res.text();
  return { ms: performance.now() - started, status: res.status, text, location: res.headers.get("Location") };
}

const form = (fields) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

async function month(base, cookie, month, creators, m, csvText) {
  const csv = csvText ?? csvFor(month, creators, m);
  const preview = await post(base, cookie, form({ intent: "preview", month, file: new File([csv], `revenue-${month}.csv`, { type: "text/csv" }) }));
  const importId = /name="importId" value="([^"]+)"/.exec(preview.text)?.[1];
  if (preview.status !== 200 || !importId) throw new Error(`preview of ${month} failed: ${preview.status} ${preview.text.slice(0, 300)}`);
  const commit = await post(base, cookie, form({ intent: "commit", importId, replaces: "" }));
  const funds = await post(base, cookie, form({ intent: "funds_received", month }));
  const finalize = await post(base, cookie, form({ intent: "finalize", month }));
  for (const [step, r] of Object.entries({ commit, funds, finalize })) {
    if (r.status >= 400) throw new Error(`${step} of ${month} failed: ${r.status} ${r.text.slice(0, 300)}`);
  }
  return { preview: preview.ms, commit: commit.ms, funds: funds.ms, finalize: finalize.ms, bytes: csv.length };
}

// ---------------------------------------------------------------------------------------------
// 3. Run
// ---------------------------------------------------------------------------------------------
let server;
try {
  server = await startBenchServer({ stateDir: ".state-bench-ledger", port: values.port, prepare: addCreators, reuse: process.env.BENCH_REUSE === "1" });
  if (!prepared) throw new Error("BENCH_REUSE needs the creators of this run: run without it");
  const { creators, adminToken } = prepared;
  const cookie = `sb_session=${adminToken}`;
  const base = server.url.replace(/\/$/, "");
  // Warm the Worker (first request compiles the module).
  await fetch(`${base}/admin/payments`, { headers: { Cookie: cookie } });
  log(`${N} creators × ${MONTHS} months on ${server.kind}`);
  const rows = [];
  for (let m = 0; m < MONTHS; m++) {
    // Past months: a month can be imported once it is over (issue 29).
    const label = `2024-${String(m + 1).padStart(2, "0")}`;
    const r = await month(base, cookie, label, creators, m);
    const importMs = r.preview + r.commit;
    rows.push({ ...r, importMs, totalMs: importMs + r.funds + r.finalize });
    console.log(
      `${label}  ${N} rows (${(r.bytes / 1024).toFixed(0)} KiB)  import ${importMs.toFixed(0)} ms (preview ${r.preview.toFixed(0)} + commit ${r.commit.toFixed(0)})  funds ${r.funds.toFixed(0)} ms  finalize ${r.finalize.toFixed(0)} ms  month total ${(importMs + r.funds + r.finalize).toFixed(0)} ms`,
    );
  }
  if (rows.length > 0) {
    const totals = rows.map((r) => r.totalMs).sort((a, b) => a - b);
    const imports = rows.map((r) => r.importMs).sort((a, b) => a - b);
    const mean = totals.reduce((s, x) => s + x, 0) / totals.length;
    console.log(
      `per month of ${N} rows: mean ${mean.toFixed(0)} ms, p50 ${pct(totals, 50).toFixed(0)} ms, max ${totals.at(-1).toFixed(0)} ms (import only: p50 ${pct(imports, 50).toFixed(0)} ms, max ${imports.at(-1).toFixed(0)} ms); target ≤ ${TARGET_MS} ms per month: ${totals.at(-1) <= TARGET_MS ? "met" : "NOT met"}`,
    );
  }
  console.log(`ledger entries: ${N * MONTHS} over ${MONTHS} months`);

  // The YouTube report: daily rows summed to the month.
  if (DAILY_ROWS > 0) {
    const label = "2023-12";
    const csv = youtubeCsvFor(label, creators, DAILY_ROWS);
    const r = await month(base, cookie, label, creators, 0, csv);
    const importMs = r.preview + r.commit;
    const per10k = (importMs * 10_000) / DAILY_ROWS;
    console.log(
      `${label}  YouTube report: ${DAILY_ROWS} daily rows (${(r.bytes / 1024).toFixed(0)} KiB) summed to the month  import ${importMs.toFixed(0)} ms (preview ${r.preview.toFixed(0)} + commit ${r.commit.toFixed(0)}) = ${per10k.toFixed(0)} ms per 10,000 rows  funds ${r.funds.toFixed(0)} ms  finalize ${r.finalize.toFixed(0)} ms; target ≤ ${TARGET_MS} ms per 10,000 rows: ${per10k <= TARGET_MS ? "met" : "NOT met"}`,
    );
  }
} finally {
  await server?.dispose();
}
