// Demo growth data (issue 18): 36 people who signed up over the last 12 weeks (direct, through the
// demo creator's referral link, or the demo agency), at different steps of the funnel, with
// activity days so /user-retention has sign-ups, weekly active users and cohorts, and /referrals
// (as the demo creator) lists the referred ones. Dates relative to today; fixed ids and INSERT OR
// IGNORE: idempotent. No passwords: these accounts cannot sign in.

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;
const DAY = 86_400_000;

const FIRST = ["Ari", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"];
const LAST = ["Moreno", "Nakamura", "Okafor", "Petrov", "Quinn", "Rossi"];

export function growthSeed({ db, referrerId, agencyId }: { db: D1Database; referrerId: string; agencyId: string | null }): D1PreparedStatement[] {
  const now = Date.now();
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < 36; i++) {
    const id = uuid(7000 + i);
    const daysAgo = 2 + ((i * 37) % 82); // spread over ~12 weeks
    const joined = new Date(now - daysAgo * DAY - (i % 7) * 3_600_000).toISOString();
    const source = i % 3 === 0 ? "referral" : i % 5 === 0 && agencyId ? "agency" : "direct";
    const verified = i % 6 !== 5;
    const approved = verified && i % 4 !== 3;
    const linked = approved && i % 3 !== 2;
    const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    out.push(
      db
        .prepare("INSERT OR IGNORE INTO users (id, email, email_verified_at, user_metadata, created_at) VALUES (?, ?, ?, ?, ?)")
        .bind(id, `growth-${i}@people.shortbeat.test`, verified ? joined : null, JSON.stringify({ full_name: name }), joined),
      db
        .prepare(
          `INSERT OR IGNORE INTO profiles (user_id, creator_id, full_name, approval_status, referred_by, agency_id, term_started_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          id,
          `GROW${String(i).padStart(4, "0")}`,
          name,
          approved ? "approved" : "pending",
          source === "referral" ? referrerId : null,
          source === "agency" ? agencyId : null,
          linked ? new Date(Date.parse(joined) + 2 * DAY).toISOString() : null,
          joined,
        ),
    );
    // Activity: most people come back the first weeks, fewer later; some stop for good (inactive).
    const days: string[] = [];
    const stopsAfter = i % 4 === 0 ? 3 : i % 4 === 1 ? 20 : daysAgo;
    for (let d = 0; d <= Math.min(daysAgo, stopsAfter); d += 1 + (i % 3)) {
      days.push(new Date(Date.parse(joined) + d * DAY).toISOString().slice(0, 10));
    }
    if (days.length > 0) {
      out.push(db.prepare("INSERT OR IGNORE INTO user_activity_days (user_id, day) SELECT ?, value FROM json_each(?)").bind(id, JSON.stringify(days)));
    }
  }
  return out;
}
