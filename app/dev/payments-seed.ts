// Demo money history (issue 14): three months of the demo creator's music share — September paid
// (with a bank reference), October finalized and gathered into a pending payout, November
// estimated — plus the clipper's creator-level lines. Fixed ids and INSERT OR IGNORE: idempotent.
import { split } from "../modules/payments/split.ts";

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

type SeedPerson = { userId: string; sourceId: string; net: [number, number, number] };

export function paymentsSeed({
  db,
  adminId,
  creator,
  clipper,
}: {
  db: D1Database;
  adminId: string;
  creator: SeedPerson;
  clipper: SeedPerson;
}): D1PreparedStatement[] {
  const shareBp = 7000;
  const months = [
    { month: "2025-09", status: "paid", funds: "2025-10-10T09:00:00.000Z", finalized: "2025-10-12T09:00:00.000Z" },
    { month: "2025-10", status: "finalized", funds: "2025-11-10T09:00:00.000Z", finalized: "2025-11-12T09:00:00.000Z" },
    { month: "2025-11", status: "estimated", funds: null, finalized: null },
  ] as const;
  const out: D1PreparedStatement[] = [];
  const payoutOf = (i: number, person: number) => (i < 2 ? uuid(5100 + i * 10 + person) : null);
  months.forEach((m, i) => {
    const importId = uuid(5000 + i);
    const people = [creator, clipper];
    const entries = people.map((p) => ({ p, net: p.net[i], amount: split(p.net[i], shareBp).share }));
    const net = entries.reduce((s, e) => s + e.net, 0);
    const amount = entries.reduce((s, e) => s + e.amount, 0);
    out.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO revenue_imports (id, month, status, file_name, row_count, entry_count, net_cents, amount_cents, share_bp, created_by, created_at, went_live_at)
           VALUES (?, ?, 'live', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          importId,
          m.month,
          `revenue-${m.month}.csv`,
          entries.length,
          entries.length,
          net,
          amount,
          shareBp,
          adminId,
          `${m.month}-28T09:00:00.000Z`,
          `${m.month}-28T09:05:00.000Z`,
        ),
      db
        .prepare(
          `INSERT OR IGNORE INTO revenue_months (month, live_import_id, funds_received_at, funds_received_by, finalized_at, finalized_by) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .bind(m.month, importId, m.funds, m.funds ? adminId : null, m.finalized, m.finalized ? adminId : null),
    );
    entries.forEach((e, person) => {
      const payoutId = payoutOf(i, person);
      if (payoutId) {
        const paid = m.status === "paid";
        const batch = i === 0 ? "2025-10" : "2025-11";
        out.push(
          db
            .prepare(
              `INSERT OR IGNORE INTO payouts (id, user_id, batch, amount_cents, status, reference, paid_at, paid_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .bind(
              payoutId,
              e.p.userId,
              batch,
              e.amount,
              paid ? "paid" : "pending",
              paid ? `SB-PAY-${batch}-${person + 1}` : null,
              paid ? `${batch}-20T10:00:00.000Z` : null,
              paid ? adminId : null,
              `${batch}-20T03:17:00.000Z`,
            ),
        );
      }
      out.push(
        db
          .prepare(
            `INSERT OR IGNORE INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, payout_id, import_id, created_at)
             VALUES (?, ?, ?, 'music', ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(
            uuid(5200 + i * 10 + person),
            e.p.userId,
            m.month,
            e.p.sourceId,
            e.net,
            shareBp,
            e.amount,
            m.status,
            payoutId,
            importId,
            `${m.month}-28T09:00:00.000Z`,
          ),
      );
    });
  });
  return out;
}
