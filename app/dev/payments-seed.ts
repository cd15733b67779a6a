// Demo money history (issue 14), relative to the day it runs: three months back is paid (gathered
// by the latest payout run and paid that day, with a bank reference), two months back finalized
// after that run and payable on the next payout day, last month estimated — the demo creator's
// music share, and last month the clipper's approved clip (its revenue split between clipper and
// creator as the import does, docs/decisions/0150): the clipper has no channel, so their money is
// their part of the clip, named on /payments and shown per clip on /clipping (decision 0321). The payout dates follow the payout-day rule
// (the setting, 18 by default; Monday from a weekend: app/modules/payments/calendar.ts). Fixed ids
// and INSERT OR IGNORE: idempotent, and the first run's months stay (a month's revenue_months row
// is written only alongside its own import).
// The agreement's other states, on demo accounts no browser journey uses: one person has given
// notice (with the date it takes effect), another has an open revised-share offer, so /payments
// (as them) and /admin/payments show both. Dates relative to today.
import { expectAt } from "../lib/arrays.ts";
import { PAYOUT_DAY_OF_MONTH } from "../lib/constants.ts";
import { addDays, addMonths, dayOf, monthOf, noticeEndsOn, payoutDateIn } from "../modules/payments/calendar.ts";
import { formatBp, split } from "../lib/split.ts";
import { CLIPPER_DEFAULT_SHARE_BPS } from "../lib/constants.ts";

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

type SeedPerson = { userId: string; sourceId: string; net: [number, number, number] };
/** The clipper's approved clip, with the net revenue its video earned last month. */
type SeedClip = { id: string; url: string; creatorUserId: string; clipperUserId: string; clipperName: string; net: number };

/** Small demo amounts as the screens write them ("$20.25"); the seed runs under plain Node, so money.ts's "~/" imports are out of reach. */
const formatCents = (cents: number) => `$${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** A clip's month as the import writes it: the creator's share is the pool, the clipper's default part of it theirs. */
function clipEntries(c: SeedClip, shareBp: number) {
  const pool = split(c.net, shareBp).share;
  const clipperCents = split(pool, CLIPPER_DEFAULT_SHARE_BPS).share;
  const clipperNet = pool > 0 ? Math.floor((c.net * clipperCents) / pool) : 0;
  const splitText = formatBp(CLIPPER_DEFAULT_SHARE_BPS);
  return [
    {
      userId: c.clipperUserId,
      net: clipperNet,
      amount: clipperCents,
      note: `${c.url}: ${splitText} of the creator's share ${formatCents(pool)}`,
    },
    {
      userId: c.creatorUserId,
      net: c.net - clipperNet,
      amount: pool - clipperCents,
      note: `${c.url} by ${c.clipperName}: ${formatCents(clipperCents)} to the clipper (${splitText}) of your share ${formatCents(pool)}`,
    },
  ];
}

/**
 * The seed's calendar on `now`: the latest payout run before today (its month and date), and the
 * three months (oldest first) with their status and the days their funds came in and they were
 * finalized. The paid month was finalized before the run; the finalized one the day after it, so
 * the run left it for the next one.
 */
function paymentsSeedCalendar(now: Date, payoutDay: number = PAYOUT_DAY_OF_MONTH) {
  const today = dayOf(now);
  const thisMonth = monthOf(now);
  const runMonth = payoutDateIn(thisMonth, payoutDay) < today ? thisMonth : addMonths(thisMonth, -1);
  const runDate = payoutDateIn(runMonth, payoutDay);
  const months = [
    { month: addMonths(thisMonth, -3), status: "paid", funds: addDays(runDate, -8), finalized: addDays(runDate, -6) },
    { month: addMonths(thisMonth, -2), status: "finalized", funds: addDays(runDate, 1), finalized: addDays(runDate, 1) },
    { month: addMonths(thisMonth, -1), status: "estimated", funds: null, finalized: null },
  ] as const;
  return { runMonth, runDate, months };
}

export function paymentsSeed({
  db,
  adminId,
  creator,
  clip,
  agreements,
  now = new Date(),
  payoutDay = PAYOUT_DAY_OF_MONTH,
}: {
  db: D1Database;
  adminId: string;
  creator: SeedPerson;
  /** Last month's revenue of the clipper's approved clip (both sides' 'clip' entries). */
  clip?: SeedClip;
  /** Who has given notice and who has an open revised-share offer (accounts the e2e journeys leave alone). */
  agreements?: { noticeUserId: string; offerUserId: string };
  now?: Date;
  /** The payout-day setting (a fresh database has the default). */
  payoutDay?: number;
}): D1PreparedStatement[] {
  const shareBp = 7000;
  const nowIso = now.toISOString();
  // An instant of the seed's story, never later than now (a day of the story may be today).
  const at = (day: string, time: string) => {
    const iso = `${day}T${time}.000Z`;
    return iso < nowIso ? iso : nowIso;
  };
  const { runMonth, runDate, months } = paymentsSeedCalendar(now, payoutDay);
  const out: D1PreparedStatement[] = [];
  months.forEach((m, i) => {
    const importId = uuid(5000 + i);
    const entries = [creator].map((p) => {
      const net = expectAt(p.net, i, "demo nets per month");
      return { p, net, amount: split(net, shareBp).share };
    });
    const clipLines = clip && m.status === "estimated" ? clipEntries(clip, shareBp) : [];
    const net = [...entries, ...clipLines].reduce((s, e) => s + e.net, 0);
    const amount = [...entries, ...clipLines].reduce((s, e) => s + e.amount, 0);
    // Imported on the 1st of the month after.
    const importedOn = `${addMonths(m.month, 1)}-01`;
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
          entries.length + clipLines.length,
          entries.length + clipLines.length,
          net,
          amount,
          shareBp,
          adminId,
          at(importedOn, "09:00:00"),
          at(importedOn, "09:05:00"),
        ),
      db
        .prepare(
          `INSERT OR IGNORE INTO revenue_months (month, live_import_id, funds_received_at, funds_received_by, finalized_at, finalized_by)
           SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM revenue_imports WHERE id = ? AND month = ?)`,
        )
        .bind(
          m.month,
          importId,
          m.funds && at(m.funds, "08:00:00"),
          m.funds ? adminId : null,
          m.finalized && at(m.finalized, "09:00:00"),
          m.finalized ? adminId : null,
          importId,
          m.month,
        ),
    );
    entries.forEach((e, person) => {
      const payoutId = m.status === "paid" ? uuid(5100 + person) : null;
      if (payoutId) {
        out.push(
          db
            .prepare(
              `INSERT OR IGNORE INTO payouts (id, user_id, batch, payout_date, amount_cents, status, reference, paid_at, paid_by, created_at)
               VALUES (?, ?, ?, ?, ?, 'paid', ?, ?, ?, ?)`,
            )
            .bind(
              payoutId,
              e.p.userId,
              runMonth,
              runDate,
              e.amount,
              `SB-PAY-${runMonth}-${person + 1}`,
              at(runDate, "10:00:00"),
              adminId,
              at(runDate, "03:17:00"),
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
            at(importedOn, "09:00:00"),
          ),
      );
    });
    clipLines.forEach((e, k) => {
      out.push(
        db
          .prepare(
            `INSERT OR IGNORE INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, import_id, note, created_at)
             VALUES (?, ?, ?, 'clip', ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(uuid(5250 + i * 10 + k), e.userId, m.month, clip?.id ?? "", e.net, shareBp, e.amount, m.status, importId, e.note, at(importedOn, "09:00:00")),
      );
    });
  });
  if (agreements) out.push(...agreementSeed(db, adminId, agreements, now));
  return out;
}

function agreementSeed(db: D1Database, adminId: string, who: { noticeUserId: string; offerUserId: string }, now: Date): D1PreparedStatement[] {
  const today = dayOf(now);
  // Terms since 200 days ago; notice given 12 days ago: it takes effect at the end of the first term ending ≥ 90 days later.
  const termStart = addDays(today, -200);
  const noticeDay = addDays(today, -12);
  return [
    db
      .prepare("INSERT OR IGNORE INTO payment_agreements (user_id, status, term_start, notice_given_at, ends_on) VALUES (?, 'notice', ?, ?, ?)")
      .bind(who.noticeUserId, termStart, `${noticeDay}T10:30:00.000Z`, noticeEndsOn(termStart, noticeDay)),
    db
      .prepare("INSERT OR IGNORE INTO share_offers (id, user_id, share_bp, note, status, offered_by, created_at) VALUES (?, ?, 7500, ?, 'offered', ?, ?)")
      .bind(uuid(5300), who.offerUserId, "Thank you for a strong year: 75% from next month.", adminId, `${addDays(today, -3)}T09:00:00.000Z`),
  ];
}
