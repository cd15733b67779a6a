// Splitting money without creating or losing a cent (docs/decisions/0120-money-in-cents-and-splits.md).
// Pure and client-safe: amounts are integer cents, shares basis points (10 000 = 100%).
//
// The rule: the share part is total × share / 10 000 rounded toward zero (down for a positive total,
// up for a negative correction), and the rest — everything the rounding left over — goes to the other
// side. So share + rest === total exactly, for every total and share, and a part never exceeds the whole.

export const WHOLE_BP = 10_000;

export type Split = { share: number; rest: number };

function assertCents(totalCents: number): void {
  if (!Number.isSafeInteger(totalCents)) throw new RangeError(`Amounts are whole cents: ${totalCents}`);
}

function assertBp(shareBp: number): void {
  if (!Number.isInteger(shareBp) || shareBp < 0 || shareBp > WHOLE_BP) throw new RangeError(`A share is 0..10000 basis points: ${shareBp}`);
}

/** The share part (rounded toward zero) and the rest of `totalCents`; they always add up to it. */
export function split(totalCents: number, shareBp: number): Split {
  assertCents(totalCents);
  assertBp(shareBp);
  // BigInt: total × share may pass 2^53 for very large totals; BigInt division truncates toward zero.
  const share = Number((BigInt(totalCents) * BigInt(shareBp)) / BigInt(WHOLE_BP));
  return { share, rest: totalCents - share };
}

/** A whole-percent setting (the admin's standard share, 1..100) in basis points: exact, never floating. */
export function percentToBp(percent: number): number {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new RangeError(`A share setting is a whole percent 0..100: ${percent}`);
  return percent * 100;
}

/** 7000 → "70%", 7050 → "70.5%". */
export function formatBp(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const frac = bp % 100;
  return frac === 0 ? `${whole}%` : `${whole}.${String(frac).padStart(2, "0").replace(/0$/, "")}%`;
}
