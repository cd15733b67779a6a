import { expectAt } from "~/lib/arrays";
import { addDec, apportion, apportionCents, atScale, centsHalfUp, type Dec, subDec, ZERO } from "./decimal";

// Rounding a month's revenue once (docs/decisions/0220-revenue-amounts-and-rounding.md). Pure.
//
// The rows are summed exactly per person, channel, video and month. The month's total is rounded
// to the cent once, half up; that total is then shared down the tree — among people, each
// person's among their channels, each channel's among its videos — by largest remainder: every
// line gets its exact amount rounded down or up (never more than a cent away), and the lines of
// each level add up exactly to the level above. So the month reconciles to the cent, and the only
// sub-cent remainder is the month's own (under half a cent), recorded on the import.

/** A summed row of the file, matched to its person: the music share of `sourceId` (a channel id, or '' for a creator-level row). */
export type Leaf = { userId: string; sourceId: string; videoId: string; amount: Dec };

export type RoundedMonth = {
  /** Cents of each leaf, in the order given. */
  cents: number[];
  /** The exact sum of the leaves. */
  exact: Dec;
  /** The month's total in cents: `exact` rounded half up; the leaves' cents add up to it. */
  totalCents: number;
  /** exact − totalCents: what the single rounding left over (|remainder| ≤ half a cent). */
  remainder: Dec;
};

function groupBy<T>(items: readonly T[], key: (item: T) => string): [string, T[]][] {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  // Sorted: the same file rounds the same way whatever its row order.
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const sum = (items: readonly { amount: Dec }[]) => items.reduce((s, i) => addDec(s, i.amount), ZERO);

export function roundMonth(leaves: readonly Leaf[]): RoundedMonth {
  // Every amount already in whole cents (our own files): nothing to round, every level adds up as is.
  if (leaves.every((l) => l.amount.s <= 2)) {
    const cents = leaves.map((l) => Number(atScale(l.amount, 2)));
    const totalCents = cents.reduce((s, c) => s + c, 0);
    return { cents, exact: { n: BigInt(totalCents), s: 2 }, totalCents, remainder: { n: 0n, s: 2 } };
  }
  const indexed = leaves.map((leaf, i) => ({ ...leaf, i }));
  const exact = sum(indexed);
  const total = centsHalfUp(exact);
  const cents: number[] = new Array(leaves.length).fill(0);
  const people = groupBy(indexed, (l) => l.userId);
  const perPerson = apportionCents(
    total,
    people.map(([, ls]) => sum(ls)),
  );
  people.forEach(([, personLeaves], p) => {
    const own = roundPersonLeaves(personLeaves, expectAt(perPerson, p, "cents per person"));
    personLeaves.forEach((l, k) => {
      cents[l.i] = expectAt(own, k, "a person's leaf cents");
    });
  });
  return { cents, exact, totalCents: Number(total), remainder: subDec(exact, { n: total, s: 2 }) };
}

/**
 * The month's one rounding, in the part that crosses people (for a report priced in slices of people,
 * docs/decisions/0345): from each person's exact sum alone — one number a person, not their rows — the
 * month's total half up and each person's cents, by largest remainder in the order of their ids, exactly
 * as roundMonth shares it among people. The people may come in any order; each id once.
 */
export function monthPersonCents(people: readonly { userId: string; exact: Dec }[]): {
  cents: Map<string, bigint>;
  exact: Dec;
  totalCents: number;
  remainder: Dec;
} {
  const sorted = [...people].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const exact = sorted.reduce((s, p) => addDec(s, p.exact), ZERO);
  const total = centsHalfUp(exact);
  const shared = apportionCents(
    total,
    sorted.map((p) => p.exact),
  );
  const cents = new Map(sorted.map((p, k) => [p.userId, expectAt(shared, k, "cents per person")]));
  return { cents, exact, totalCents: Number(total), remainder: subDec(exact, { n: total, s: 2 }) };
}

/**
 * One person's leaves rounded from the person's cents (monthPersonCents): among their sources, then
 * each source's among its videos — roundMonth's inner levels, which never look past the person. The
 * leaves in the order roundMonth was given them (ties between equal keys go by that order); cents in
 * the same order.
 */
export function roundPersonLeaves(personLeaves: readonly Leaf[], personCents: bigint): number[] {
  const indexed = personLeaves.map((leaf, i) => ({ ...leaf, i }));
  const cents: number[] = new Array(personLeaves.length).fill(0);
  const sources = groupBy(indexed, (l) => l.sourceId);
  const perSource = apportionCents(
    personCents,
    sources.map(([, ls]) => sum(ls)),
  );
  sources.forEach(([, sourceLeaves], s) => {
    const ordered = [...sourceLeaves].sort((a, b) => (a.videoId < b.videoId ? -1 : a.videoId > b.videoId ? 1 : a.i - b.i));
    const perLeaf = apportionCents(
      expectAt(perSource, s, "cents per source"),
      ordered.map((l) => l.amount),
    );
    ordered.forEach((l, k) => {
      cents[l.i] = Number(perLeaf[k]);
    });
  });
  return cents;
}

/**
 * A line's cents shared among its parts in proportion to the parts' weights (whole cents, adding up
 * exactly; largest remainder). For a statement line's per-video net and amount.
 */
export function shareByWeights(totalCents: number, weights: readonly number[]): number[] {
  const whole = weights.reduce((s, w) => s + w, 0);
  if (weights.length === 0) return [];
  if (whole === 0) {
    // No weight to go by: the first part takes it all.
    return weights.map((_, i) => (i === 0 ? totalCents : 0));
  }
  const sign = totalCents < 0 ? -1n : 1n;
  const abs = BigInt(Math.abs(totalCents));
  return apportion(
    abs,
    weights.map((w) => BigInt(w) * abs),
    BigInt(whole),
  ).map((v) => Number(v * sign));
}
