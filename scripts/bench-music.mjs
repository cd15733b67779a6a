#!/usr/bin/env node
// Music library benchmark: 10,000 tracks in a fresh local D1 (wrangler's, in a temporary state
// folder, all migrations applied), then the library's own statements — libraryStatements() from
// app/modules/music/search.server.ts, the very code /music runs, one batch per page — for typical
// searches and filter sets. Prints per query set the p50/p95 of the server time (D1's own time
// for the batch, meta.duration) and of the round trip from Node, and whether server p95 ≤ 50 ms.
//   npm run bench:music [-- --tracks 10000 --runs 40 --explain --only 'search']
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { pct, root } from "./bench-lib.mjs";

const { values } = parseArgs({
  options: {
    tracks: { type: "string", default: "10000" },
    runs: { type: "string", default: "40" },
    explain: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    only: { type: "string", default: "" },
  },
});
const N = Number(values.tracks);
const RUNS = Math.max(5, Number(values.runs));
const TARGET_MS = 50;
const log = (...args) => console.error("[bench:music]", ...args);

// The app's modules import each other as `~/…` and without extensions (Vite resolves that); Node
// gets the same answers from this resolve hook, so the bench imports the real query builder.
const app = join(root, "app");
registerHooks({
  resolve(spec, context, next) {
    let base = null;
    if (spec.startsWith("~/")) base = resolve(app, spec.slice(2));
    else if (spec.startsWith(".") && context.parentURL?.startsWith("file:") && fileURLToPath(context.parentURL).startsWith(app)) {
      base = resolve(dirname(fileURLToPath(context.parentURL)), spec);
    }
    if (base && !/\.[cm]?[jt]sx?$/.test(base)) {
      for (const ext of [".ts", ".tsx", "/index.ts"]) if (existsSync(base + ext)) return next(pathToFileURL(base + ext).href, context);
    }
    return next(base ? pathToFileURL(base).href : spec, context);
  },
});

// ---------------------------------------------------------------------------------------------
// 1. A fresh local D1 with every migration
// ---------------------------------------------------------------------------------------------
const stateDir = mkdtempSync(join(tmpdir(), "shortbeat-bench-music-"));
process.on("exit", () => values.keep || rmSync(stateDir, { recursive: true, force: true }));
log(`state in ${stateDir}`);
{
  const result = spawnSync(
    process.execPath,
    [join(root, "node_modules/.bin/wrangler"), "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  if (result.status !== 0) throw new Error("Applying D1 migrations failed");
}

const { getPlatformProxy } = await import("wrangler");
const config = join(stateDir, "wrangler.json");
writeFileSync(
  config,
  JSON.stringify({
    name: "shortbeat-bench-music",
    compatibility_date: "2026-10-01",
    d1_databases: [{ binding: "DB", database_name: "shortbeat", database_id: "00000000-0000-0000-0000-000000000000" }],
  }),
);
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
const proxy = await getPlatformProxy({ configPath: config, persist: { path: join(stateDir, "v3") } });
const DB = proxy.env.DB;

const { drizzle } = await import("drizzle-orm/d1");
const schema = await import("../app/db/schema.ts");
const { libraryStatements, similarStatement, VOCABULARY_SQL } = await import("../app/modules/music/search.server.ts");
const { anyCorrectable, correctWords, typedWords } = await import("../app/modules/music/search-words.ts");
const { GENRES, MOODS, EMPTY_LIBRARY_QUERY } = await import("../app/modules/music/library.ts");
const d = drizzle(DB, { schema });

// ---------------------------------------------------------------------------------------------
// 2. N tracks (deterministic), inserted 1,000 at a time through json_each (one bound parameter)
// ---------------------------------------------------------------------------------------------
let seed = 42;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const pick = (list) => list[Math.floor(rand() * list.length)];
const ADJ =
  "golden neon quiet wild electric velvet midnight silver broken crystal lazy rapid gentle fading hidden lucky brave endless frozen burning dreamy sunny stormy rusty cosmic urban summer winter paper glass".split(
    " ",
  );
const NOUN =
  "river skyline garden heart drive echo horizon pulse shadow signal wave ocean mountain city road window light fire rain storm dance parade memory story engine machine planet forest harbor island".split(
    " ",
  );
const FIRST = "ada ben cleo dev eli fay gus hana ivo jun kai lea milo nia otto pia quin rae sol tao uma vic wen xia yan zoe".split(" ");
const LAST = "stone vale reyes okafor drift bloom sound lights cedar harbor nova kite moss frost lane".split(" ");
const VOCAB = (
  "love summer travel study chill beat retro night morning workout gaming vlog cooking dance party epic trailer calm focus " +
  "piano guitar synth bass drums strings horns ukulele acoustic happy sad dark bright upbeat dreamy cinematic tension " +
  "comedy kids nature city ocean rain sunset sunrise coffee road trip wedding sports motivation victory mystery horror"
).split(" ");
const STATUSES = [...Array(92).fill("published"), ...Array(3).fill("in_review"), ...Array(3).fill("withdrawn"), ...Array(2).fill("rejected")];
const peaks = JSON.stringify(Array.from({ length: 256 }, (_, i) => Math.round(128 + 100 * Math.sin(i / 7))));
const now = Date.parse("2026-11-01T00:00:00.000Z");

const t0 = performance.now();
for (let from = 0; from < N; from += 1000) {
  const rows = [];
  for (let i = from; i < Math.min(N, from + 1000); i++) {
    const status = pick(STATUSES);
    const created = new Date(now - rand() * 3 * 365 * 86_400_000).toISOString();
    rows.push({
      id: `bench-${String(i).padStart(6, "0")}`,
      title: `${pick(ADJ)} ${pick(NOUN)}`.replace(/\b\w/g, (c) => c.toUpperCase()),
      artist: `${pick(FIRST)} ${pick(LAST)}`.replace(/\b\w/g, (c) => c.toUpperCase()),
      genre: pick(GENRES),
      mood: pick(MOODS),
      bpm: 60 + Math.floor(rand() * 121),
      duration: 30 + Math.floor(rand() * 271),
      tags: [...new Set(Array.from({ length: 3 + Math.floor(rand() * 3) }, () => pick(VOCAB)))].join(" "),
      status,
      licences: Math.floor(1 / (rand() + 0.01)),
      created,
      published: status === "published" || status === "withdrawn" ? created : null,
    });
  }
  await DB.prepare(
    `INSERT INTO music_tracks (id, title, artist, genre, mood, bpm, duration_seconds, audio_key, tags, peaks, status, licence_count, created_at, updated_at, published_at)
     SELECT j ->> 'id', j ->> 'title', j ->> 'artist', j ->> 'genre', j ->> 'mood', j ->> 'bpm', j ->> 'duration', 'bench/' || (j ->> 'id') || '.wav',
            j ->> 'tags', ?2, j ->> 'status', j ->> 'licences', j ->> 'created', j ->> 'created', j ->> 'published'
     FROM (SELECT value AS j FROM json_each(?1))`,
  )
    .bind(JSON.stringify(rows), peaks)
    .run();
}
await DB.prepare("ANALYZE").run();
const stored = await DB.prepare("SELECT count(*) AS n, sum(status = 'published') AS published FROM music_tracks").first();
log(`${stored.n} tracks (${stored.published} published) stored in ${Math.round(performance.now() - t0)} ms`);

// ---------------------------------------------------------------------------------------------
// 3. The queries
// ---------------------------------------------------------------------------------------------
const someIds = Array.from({ length: 20 }, (_, i) => `bench-${String(i * 397).padStart(6, "0")}`);
const q = (changes) => ({ ...EMPTY_LIBRARY_QUERY, ...changes });
const SETS = [
  ["first page (newest)", q({})],
  ["page 40 (newest)", q({ page: 40 })],
  ["most used", q({ sort: "popular" })],
  ["title A–Z, page 10", q({ sort: "title", page: 10 })],
  ["genre", q({ genre: "Lo-fi" })],
  ["genre + mood", q({ genre: "Jazz", mood: "Calm" })],
  ["BPM 90–120", q({ bpmMin: 90, bpmMax: 120 })],
  ["length 1–3 min, most used", q({ durMin: 60, durMax: 180, sort: "popular" })],
  ["every filter", q({ genre: "Pop", mood: "Happy", bpmMin: 100, bpmMax: 140, durMin: 30, durMax: 240, sort: "title" })],
  ["search 'love'", q({ q: "love", sort: "relevance" })],
  ["search 'su' (2-letter prefix)", q({ q: "su", sort: "relevance" })],
  ["search 's' (1-letter prefix)", q({ q: "s", sort: "relevance" })],
  ["search 'golden ri'", q({ q: "golden ri", sort: "relevance" })],
  ["search artist 'milo frost'", q({ q: "milo frost", sort: "relevance" })],
  ["search + genre, most used", q({ q: "night", genre: "Synthwave", sort: "popular" })],
  ["search + filters, page 2", q({ q: "dance", bpmMin: 100, durMax: 200, sort: "newest", page: 2 })],
  ["search genre word 'jazz'", q({ q: "jazz", sort: "relevance" })],
  ["search variant 'hip hop chill'", q({ q: "hip hop chill", sort: "relevance" })],
  ["search British 'harbour'", q({ q: "harbour", sort: "relevance" })],
  ["search typo 'goldn rivr' (corrected)", q({ q: "goldn rivr", sort: "relevance" })],
  ["search, no match (+ correction tried)", q({ q: "zzqxj", sort: "relevance" })],
  ["20 ids (favorites)", q({ ids: someIds })],
];

const rows = [];
let worst = 0;
/** One row of the table: the percentiles of a query set's timings. */
function record(name, matches, wall, sqlTime) {
  wall.sort((a, b) => a - b);
  sqlTime.sort((a, b) => a - b);
  const p95 = pct(sqlTime, 95);
  worst = Math.max(worst, p95);
  rows.push({
    query: name,
    matches,
    "server p50 ms": pct(sqlTime, 50).toFixed(1),
    "server p95 ms": p95.toFixed(1),
    "round trip p50 ms": pct(wall, 50).toFixed(1),
    "round trip p95 ms": pct(wall, 95).toFixed(1),
    "≤ 50 ms": p95 <= TARGET_MS ? "yes" : "NO",
  });
}
for (const [name, query] of SETS.filter(([name]) => name.includes(values.only))) {
  const statements = () => libraryStatements(d, query);
  if (values.explain) {
    for (const s of statements()) {
      const { sql, params } = s.toSQL();
      const plan = await DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all();
      log(`${name}:\n  ${plan.results.map((r) => r.detail).join("\n  ")}`);
    }
  }
  const wall = [];
  const sqlTime = [];
  let total = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    // The loader's call: one batch of [page, count] (drizzle).
    const start = performance.now();
    const [, counted] = await d.batch(statements());
    let ms = performance.now() - start;
    total = counted[0]?.n ?? 0;
    // The same statements as prepared D1 statements, for D1's own SQL time.
    const prepared = statements().map((s) => {
      const { sql, params } = s.toSQL();
      return DB.prepare(sql).bind(...params);
    });
    const results = await DB.batch(prepared);
    let server = results.reduce((n, r) => n + (r.meta?.duration ?? 0), 0);
    // A search that found nothing: the loader reads the vocabulary, corrects the typos
    // (library.server.ts) and, when that changed a word, reads the corrected page — timed too.
    // (A raw count row is {"count(*)": n}: drizzle's mapping to `n` is not applied here.)
    const rawCount = (result) => Number(Object.values(result.results[0] ?? {})[0] ?? 0);
    if (query.q && rawCount(results[1]) === 0 && anyCorrectable(typedWords(query.q))) {
      const fixStart = performance.now();
      const vocabulary = await DB.prepare(VOCABULARY_SQL).all();
      server += vocabulary.meta?.duration ?? 0;
      const words = correctWords(typedWords(query.q), vocabulary.results);
      if (words) {
        const fixed = libraryStatements(d, { ...query, q: words.join(" ") }).map((s) => {
          const { sql, params } = s.toSQL();
          return DB.prepare(sql).bind(...params);
        });
        const again = await DB.batch(fixed);
        server += again.reduce((n, r) => n + (r.meta?.duration ?? 0), 0);
        total = rawCount(again[1]);
      }
      ms += performance.now() - fixStart;
    }
    if (i >= 3) {
      wall.push(ms);
      sqlTime.push(server);
    }
  }
  record(name, total, wall, sqlTime);
}

// "Similar tracks" of a published track (/music/similar/{id}): its one statement, timed the same way.
const similarName = "similar tracks (one track's page)";
if (similarName.includes(values.only)) {
  const seedTrack = await DB.prepare("SELECT id FROM music_tracks WHERE status = 'published' ORDER BY id LIMIT 1 OFFSET 500").first();
  const wall = [];
  const sqlTime = [];
  let found = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    found = (await similarStatement(d, seedTrack.id)).length;
    const ms = performance.now() - start;
    const { sql, params } = similarStatement(d, seedTrack.id).toSQL();
    const result = await DB.prepare(sql)
      .bind(...params)
      .all();
    if (i >= 3) {
      wall.push(ms);
      sqlTime.push(result.meta?.duration ?? 0);
    }
  }
  record(similarName, found, wall, sqlTime);
}
await proxy.dispose();

console.log(`\nMusic library: ${N} tracks, ${RUNS} runs per query set. Server time = D1's own time for the page's batch (page + count, meta.duration);`);
console.log("round trip = the same batch through drizzle from Node to wrangler's local D1 (adds the local proxy's RPC, sensitive to machine load).\n");
console.table(rows);
console.log(`\nWorst server p95: ${worst.toFixed(1)} ms (target ≤ ${TARGET_MS} ms): ${worst <= TARGET_MS ? "met" : "NOT met"}`);
process.exitCode = worst <= TARGET_MS ? 0 : 1;
