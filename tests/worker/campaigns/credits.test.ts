// The payments module's credits API (issue 15): ledger entries other domains write in their own
// batch — thousands in a few statements, written once per person, month and source, finalized by
// source, and never finalized by a music month.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { BatchItem } from "drizzle-orm/batch";
import { CREDIT_ROWS_PER_INSERT, type Credit, creditQueries, creditsOfSourceQuery, finalizeCreditsQuery } from "~/modules/payments/payments.server";
import { db } from "~/platform/db.server";
import { count } from "../helpers";
import { present } from "../../helpers/present";

async function people(n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => crypto.randomUUID());
  const statements = ids.map((id) => env.DB.prepare("INSERT INTO users (id, email) VALUES (?, ?)").bind(id, `credit-${id}@example.com`));
  for (let i = 0; i < statements.length; i += 500) await env.DB.batch(statements.slice(i, i + 500));
  return ids;
}

const credit = (userId: string, sourceId: string, over: Partial<Credit> = {}): Credit => ({
  userId,
  month: "2033-01",
  sourceKind: "campaign",
  sourceId,
  netCents: 1234,
  shareBp: 10000,
  amountCents: 1234,
  status: "estimated",
  note: "Brand — Title",
  ...over,
});

const run = (items: BatchItem<"sqlite">[]) => db().batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);

describe("creditQueries", () => {
  it("writes 2,500 entries in three statements, once: a repeat writes nothing", async () => {
    const ids = await people(2500);
    const source = crypto.randomUUID();
    const items = creditQueries(ids.map((id) => credit(id, source)));
    expect(items).toHaveLength(Math.ceil(2500 / CREDIT_ROWS_PER_INSERT));
    await run(items);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE source_id = ? AND import_id IS NULL AND status = 'estimated'", source)).toBe(2500);
    expect(await count("SELECT coalesce(sum(amount_cents), 0) AS n FROM ledger_entries WHERE source_id = ?", source)).toBe(2500 * 1234);
    await run(creditQueries(ids.slice(0, 10).map((id) => credit(id, source))));
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE source_id = ?", source)).toBe(2500);
    const row = await env.DB.prepare("SELECT note, share_bp, month FROM ledger_entries WHERE source_id = ? LIMIT 1").bind(source).first();
    expect(row).toEqual({ note: "Brand — Title", share_bp: 10000, month: "2033-01" });

    // Finalized by source only.
    const other = crypto.randomUUID();
    await run(creditQueries([credit(present(ids[0], "the first person"), other)]));
    await finalizeCreditsQuery("campaign", source);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE source_id = ? AND status = 'finalized'", source)).toBe(2500);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE source_id = ? AND status = 'estimated'", other)).toBe(1);
    expect((await creditsOfSourceQuery("campaign", other)).map((c) => c.status)).toEqual(["estimated"]);
  });

  it("refuses what is not a credit before anything is written", () => {
    const id = crypto.randomUUID();
    expect(() => creditQueries([credit(id, "s"), credit(id, "s")])).toThrow(RangeError);
    expect(() => creditQueries([credit(id, "s", { month: "2033-13" })])).toThrow(RangeError);
    expect(() => creditQueries([credit(id, "s", { amountCents: 1.5 })])).toThrow(RangeError);
    expect(() => creditQueries([credit(id, "s", { shareBp: 10001 })])).toThrow(RangeError);
    expect(() => creditQueries([credit(id, "s", { sourceKind: "music" as never })])).toThrow(RangeError);
    expect(() => creditQueries([credit(id, "s", { status: "paid" as never })])).toThrow(RangeError);
  });
});
