#!/usr/bin/env node
// A generated YouTube content-owner revenue report for ONE finished month (issue 45 §3): daily rows
// per video and country, with the columns of YouTube's content-owner revenue report (the shape
// tests/fixtures/revenue/youtube-content-owner-2031-03.csv has and the import detects as "youtube":
// date, channel_id, video_id, estimated_partner_revenue + dimensions and metrics;
// app/modules/payments/revenue-csv.ts). Its channels are the scale state's (scripts/scale-ids.mjs,
// filled by scripts/scale-state.mjs), so every row matches a creator. Written as a stream (never held
// in memory), deterministic by seed.
//
//   npm run gen:revenue-report [-- --rows 5000000 --channels 100000 --month 2025-11 --seed 45 --out .state-scale/report.csv]
//
// Default month: the month before the scale state's year (12 + 1 months before now), finished and
// without an import, so the import bench can bring it in. Beside the file it writes
// <out>.expected.json (the totals) and <out>.expected-entries.csv (each channel's statement line),
// computed exactly as the import rounds (docs/decisions/0220; revenue-totals.ts, import-price.ts):
// each row's amount summed exactly per channel and video (BigInt micro-dollars), the month rounded
// once to the cent half up, shared down to each person (largest remainder, people in id order), then
// the person's 70 % share rounded toward zero (split(): the standard share; the scale creators have
// no revised share, agreement end, clip or referral). So a bench can check the import's statements
// against it to the cent.
import { once } from "node:events";
import { createWriteStream, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { monthBefore, prng, scaleChannelId, scaleUserId, scaleVideoId } from "./scale-ids.mjs";

const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "5000000" },
    channels: { type: "string", default: "100000" },
    month: { type: "string", default: monthBefore(new Date(), 13) },
    seed: { type: "string", default: "45" },
    "share-bp": { type: "string", default: "7000" },
    out: { type: "string" },
  },
});
const ROWS = Number(values.rows);
const CHANNELS = Number(values.channels);
const MONTH = values.month;
const SHARE_BP = BigInt(values["share-bp"]);
if (!/^\d{4}-\d{2}$/.test(MONTH)) throw new Error(`--month must be YYYY-MM: ${MONTH}`);
const out = resolve(root, values.out ?? `.state-scale/youtube-revenue-${MONTH}.csv`);
const [year, mon] = MONTH.split("-").map(Number);
const DAYS = new Date(Date.UTC(year, mon, 0)).getUTCDate();
if (Date.UTC(year, mon, 1) > Date.now()) throw new Error(`${MONTH} is not finished yet: the import refuses it`);

// The real report's columns (YouTube Reporting API, content owner "estimated revenue" report).
const HEADER = [
  "date",
  "channel_id",
  "video_id",
  "claimed_status",
  "uploader_type",
  "country_code",
  "estimated_partner_revenue",
  "estimated_partner_ad_revenue",
  "estimated_partner_ad_auction_revenue",
  "estimated_partner_ad_reserved_revenue",
  "estimated_youtube_ad_revenue",
  "estimated_monetized_playbacks",
  "estimated_playback_based_cpm",
  "ad_impressions",
  "estimated_cpm",
  "estimated_partner_red_revenue",
  "estimated_partner_transaction_revenue",
];
const COUNTRIES = ["US", "GB", "IN", "DE", "BR", "CA", "MX", "FR", "JP", "AU"];

// The rows: each channel has `perChannel` rows, (day, video) pairs, each video on every day of the
// month in turn (so `videos` = ceil(perChannel / DAYS)); a video's country is fixed. Written day by day
// (as YouTube's daily files concatenate), channel by channel within a day. Rows left over after
// `perChannel × CHANNELS` go one each to the first channels.
const perChannel = Math.floor(ROWS / CHANNELS);
const extra = ROWS - perChannel * CHANNELS;
const rowsOf = (c) => perChannel + (c < extra ? 1 : 0);
const micros = (x) => {
  const whole = x / 1_000_000n;
  return `${whole}.${String(x % 1_000_000n).padStart(6, "0")}`;
};

mkdirSync(dirname(out), { recursive: true });
const stream = createWriteStream(out, { highWaterMark: 1 << 20 });
const write = async (text) => {
  if (!stream.write(text)) await once(stream, "drain");
};
const started = performance.now();
const random = prng(Number(values.seed));
// Exact sums in micro-dollars (the report's six decimals): per channel, and per channel × video.
const channelMicros = new Array(CHANNELS).fill(0n);
const videoMicros = new Map();
let totalMicros = 0n;
let written = 0;
await write(`${HEADER.join(",")}\n`);
let buffer = "";
for (let day = 1; day <= DAYS; day++) {
  const date = `${MONTH.replace("-", "")}${String(day).padStart(2, "0")}`;
  for (let c = 0; c < CHANNELS; c++) {
    const n = rowsOf(c);
    const channel = scaleChannelId(c);
    // Row r of the channel is (day r % DAYS + 1, video floor(r / DAYS)): this day's rows are r = day-1, day-1+DAYS, …
    for (let r = day - 1; r < n; r += DAYS) {
      const v = Math.floor(r / DAYS);
      const video = scaleVideoId(c, v);
      // Skewed: most rows earn cents, a few earn dollars.
      const revenue = BigInt(Math.floor(random() ** 3 * 4_000_000));
      const ad = (revenue * 8n) / 10n;
      const auction = (ad * 9n) / 10n;
      const impressions = 50 + Math.floor(random() * 20_000);
      const playbacks = Math.floor(impressions * 0.7);
      buffer += `${date},${channel},${video},claimed,thirdParty,${COUNTRIES[(c + v) % COUNTRIES.length]},${micros(revenue)},${micros(ad)},${micros(auction)},${micros(ad - auction)},${micros((ad * 3n) / 4n)},${playbacks},${(random() * 9).toFixed(6)},${impressions},${(random() * 12).toFixed(6)},${micros(revenue - ad)},0.000000\n`;
      channelMicros[c] += revenue;
      const key = `${c}:${v}`;
      videoMicros.set(key, (videoMicros.get(key) ?? 0n) + revenue);
      totalMicros += revenue;
      written++;
      if (buffer.length > 1 << 20) {
        await write(buffer);
        buffer = "";
      }
    }
  }
  if (day % 5 === 0) console.error(`[gen] day ${day}/${DAYS}: ${written.toLocaleString("en-US")} rows`);
}
await write(buffer);
stream.end();
await once(stream, "finish");

// The import's rounding (revenue-totals.ts roundMonth, decimal.ts): the month's exact total rounded half
// up to the cent; shared among people (one channel each: creator c is scaleUserId(c), sorted as c is)
// by largest remainder over their exact amounts (ties: the earlier person).
const UNIT = 10_000n; // micro-dollars in a cent
const totalCents = totalMicros / UNIT + (2n * (totalMicros % UNIT) >= UNIT ? 1n : 0n);
// Every channel with a row is a statement line, even one that earned nothing (priceImport keeps it).
const people = [...channelMicros.keys()].filter((c) => rowsOf(c) > 0).sort((a, b) => (scaleUserId(a) < scaleUserId(b) ? -1 : 1));
const cents = people.map((c) => channelMicros[c] / UNIT);
let left = totalCents - cents.reduce((s, x) => s + x, 0n);
const order = people.map((c, i) => ({ i, r: channelMicros[c] % UNIT })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
for (const { i } of order) {
  if (left <= 0n) break;
  cents[i] += 1n;
  left -= 1n;
}
const lines = ["channel_id,user_id,net_cents,share_bp,amount_cents"];
let amountCents = 0n;
people.forEach((c, i) => {
  const amount = (cents[i] * SHARE_BP) / 10_000n;
  amountCents += amount;
  lines.push(`${scaleChannelId(c)},${scaleUserId(c)},${cents[i]},${SHARE_BP},${amount}`);
});
const expected = {
  month: MONTH,
  format: "youtube",
  seed: Number(values.seed),
  rows: written,
  channels: people.length,
  videos: videoMicros.size,
  exactTotal: micros(totalMicros),
  netCents: Number(totalCents),
  remainder: `${totalMicros - totalCents * UNIT < 0n ? "-" : ""}0.00${String((totalMicros - totalCents * UNIT < 0n ? -1n : 1n) * (totalMicros - totalCents * UNIT)).padStart(4, "0")}`,
  shareBp: Number(SHARE_BP),
  amountCents: Number(amountCents),
  entries: people.length,
  videoLines: videoMicros.size,
  bytes: statSync(out).size,
};
writeFileSync(`${out}.expected.json`, `${JSON.stringify(expected, null, 2)}\n`);
writeFileSync(`${out}.expected-entries.csv`, `${lines.join("\n")}\n`);
const seconds = (performance.now() - started) / 1000;
console.log(
  `gen:revenue-report — ${written.toLocaleString("en-US")} rows for ${MONTH} (${people.length.toLocaleString("en-US")} channels, ${videoMicros.size.toLocaleString("en-US")} videos), ` +
    `${(expected.bytes / 1024 ** 3).toFixed(2)} GB in ${seconds.toFixed(1)} s → ${out.replace(`${root}/`, "")}`,
);
console.log(
  `expected: exact total $${expected.exactTotal}, net ${expected.netCents} cents (remainder ${expected.remainder}), ` +
    `creators' ${expected.shareBp / 100} %: ${expected.amountCents} cents over ${expected.entries} statement lines (${expected.videoLines} video lines) → ${`${out}.expected.json`.replace(`${root}/`, "")}`,
);
