// Pricing a month in slices of people (docs/decisions/0345), pure: the month's rounding from one exact
// sum a person, each slice of people priced alone, the clips summed over the slices (a clip's creator
// and clipper in different slices), the referral bonus from a max share and per-referrer sums added
// over slices of referred people — composed, exactly priceImport's entries, lines and counts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ClipFacts, ClipRow } from "~/modules/payments/clip-split";
import { clipSplitEntries } from "~/modules/payments/clip-split";
import { addDec, type Dec, ZERO } from "~/modules/payments/decimal";
import {
  type Entry,
  priceImport,
  pricePeopleSlice,
  type ReferralFacts,
  referralEntriesFromNets,
  referredNets,
  type ShareFacts,
  type VideoLine,
} from "~/modules/payments/import-price";
import { type Leaf, monthPersonCents } from "~/modules/payments/revenue-totals";

const MONTH = "2026-11";
const PEOPLE = ["u0", "u1", "u2", "u3", "u4", "u5"];

/** Entries and video lines without their random ids, sorted: what a statement shows. */
function shown(entries: readonly Entry[], lines: readonly VideoLine[]) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return {
    entries: entries.map((e) => `${e.userId}|${e.sourceKind}|${e.sourceId}|${e.netCents}|${e.shareBp}|${e.amountCents}|${e.note ?? ""}`).sort(),
    lines: lines.map((l) => `${byId.get(l.entryId)?.userId}|${byId.get(l.entryId)?.sourceId}|${l.videoId}|${l.netCents}|${l.amountCents}`).sort(),
  };
}

const scenario = fc.record({
  rows: fc.array(
    fc.record({
      u: fc.integer({ min: 0, max: 5 }),
      c: fc.integer({ min: 0, max: 2 }),
      v: fc.integer({ min: 0, max: 4 }),
      m: fc.oneof(fc.bigInt({ min: 0n, max: 40n }), fc.bigInt({ min: 0n, max: 10n ** 11n })),
      s: fc.constantFrom(2, 3, 6, 9),
    }),
    { minLength: 1, maxLength: 40 },
  ),
  // A clip on videos v1..v4: its creator and clipper any two of the people.
  clips: fc.array(fc.option(fc.record({ creator: fc.integer({ min: 0, max: 5 }), clipper: fc.integer({ min: 0, max: 5 }) })), { minLength: 4, maxLength: 4 }),
  revised: fc.option(fc.integer({ min: 5000, max: 9000 })),
  ends: fc.constantFrom(null, "2026-11-15", "2026-10-01"),
  settingBp: fc.constantFrom(0, 1000, 4000),
  referrers: fc.array(
    fc.option(
      fc.record({ by: fc.constantFrom("u0", "u3", "r9"), banned: fc.boolean(), linked: fc.constantFrom("2026-06-01T00:00:00Z", "2024-01-01T00:00:00Z") }),
    ),
    {
      minLength: 6,
      maxLength: 6,
    },
  ),
  perSlice: fc.integer({ min: 1, max: 3 }),
});

describe("pricing in slices of people (0345)", () => {
  it("gives priceImport's entries, video lines and counts exactly, a clip or a referrer spanning slices (property)", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const leaves: Leaf[] = sc.rows.map((r) => ({
          userId: `u${r.u}`,
          sourceId: r.c ? `c${r.c}` : "",
          videoId: r.v ? `v${r.v}` : "",
          amount: { n: r.m, s: r.s },
        }));
        const clipRows: ClipRow[] = sc.clips.flatMap((c, k) =>
          c && c.creator !== c.clipper
            ? [
                {
                  clipId: `k${k + 1}`,
                  videoId: `v${k + 1}`,
                  url: `https://c/${k + 1}`,
                  creatorUserId: `u${c.creator}`,
                  clipperUserId: `u${c.clipper}`,
                  linkId: null,
                },
              ]
            : [],
        );
        const clips: ClipFacts = { clips: clipRows, changes: new Map(), clipperNames: new Map() };
        const shares: ShareFacts = {
          shareBp: 7000,
          revised: new Map(sc.revised ? [["u1", sc.revised]] : []),
          ends: new Map(sc.ends ? [["u2", sc.ends]] : []),
        };
        const referral: ReferralFacts = {
          settingBp: sc.settingBp,
          referred: sc.referrers.flatMap((r, k) =>
            r ? [{ userId: `u${k}`, referrerId: r.by, channelLinkedAt: r.linked, referrerBanned: r.banned ? 1 : 0 }] : [],
          ),
        };
        const whole = priceImport({ month: MONTH, importId: "imp", leaves, shares, clips, referral });

        // 1. One exact sum a person → each person's cents of the month.
        const exactOf = new Map<string, Dec>();
        for (const l of leaves) exactOf.set(l.userId, addDec(exactOf.get(l.userId) ?? ZERO, l.amount));
        const month = monthPersonCents([...exactOf].map(([userId, exact]) => ({ userId, exact })));
        expect(month.totalCents).toBe(whole.rounded.totalCents);
        // 2. Slices of people, each priced alone (in an order other than their ids').
        const people = [...PEOPLE].reverse();
        const entries: Entry[] = [];
        const videoLines: VideoLine[] = [];
        const clipCents = new Map<string, number>();
        let notCredited = 0;
        for (let k = 0; k < people.length; k += sc.perSlice) {
          const slice = new Set(people.slice(k, k + sc.perSlice));
          const part = pricePeopleSlice({
            month: MONTH,
            importId: "imp",
            leaves: leaves.filter((l) => slice.has(l.userId)),
            personCents: month.cents,
            shares,
            clips: clipRows,
          });
          entries.push(...part.entries);
          videoLines.push(...part.videoLines);
          notCredited += part.notCredited;
          for (const [clip, cents] of part.clipCents) clipCents.set(clip, (clipCents.get(clip) ?? 0) + cents);
        }
        // 3. The clips, from their cents summed over the slices.
        const clipped = clipSplitEntries({
          month: MONTH,
          importId: "imp",
          claimed: clipRows.filter((c) => clipCents.has(c.clipId)),
          netOf: clipCents,
          facts: clips,
          creatorShareBpOf: (u) => shares.revised.get(u) ?? shares.shareBp,
          endsOf: (u) => shares.ends.get(u) ?? null,
          newId: () => crypto.randomUUID(),
        });
        entries.push(...clipped.entries);
        notCredited += clipped.notCredited;
        // 4. The referral bonus: the max share over all entries, the referrers' sums over slices of referred people.
        const netByUser = new Map<string, number>();
        for (const e of entries) netByUser.set(e.userId, (netByUser.get(e.userId) ?? 0) + e.netCents);
        const maxShareBp = Math.max(0, ...entries.map((e) => e.shareBp));
        const byReferrer = new Map<string, number>();
        for (let k = 0; k < referral.referred.length; k += sc.perSlice) {
          const part = referredNets(netByUser, MONTH, { ...referral, referred: referral.referred.slice(k, k + sc.perSlice) });
          for (const [r, net] of part) byReferrer.set(r, (byReferrer.get(r) ?? 0) + net);
        }
        const earned = entries.length;
        if (earned > 0) entries.push(...referralEntriesFromNets(byReferrer, maxShareBp, referral.settingBp, MONTH, "imp", () => crypto.randomUUID()));

        expect(shown(entries, videoLines)).toEqual(shown(whole.entries, whole.videoLines));
        expect(notCredited).toBe(whole.notCredited);
      }),
      { numRuns: 400 },
    );
  });
});
