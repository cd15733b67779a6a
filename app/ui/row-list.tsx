import type { ReactNode } from "react";

/**
 * A list of rows in a white card, or one line of text when there are none: the console's lists
 * (muted users, the chat feed, published tracks, payouts, agreements) look and read alike.
 * `children` draws one row (an `<li>` with its key). With `card={false}` the rows stand without
 * the card (a short list under a section's heading: recent imports, recent music decisions).
 */
export function RowList<T>({
  items,
  empty,
  spacing = "mt-2",
  className = "",
  card = true,
  children,
}: {
  items: readonly T[];
  empty: ReactNode;
  /** The gap above the list or the empty line. */
  spacing?: string;
  /** More classes for the list (for example its text size). */
  className?: string;
  /** The white card around the rows (default); false: the divided rows alone. */
  card?: boolean;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return <p className={`${spacing} text-sm text-slate-600`}>{empty}</p>;
  const frame = card ? " rounded-xl border border-slate-200 bg-white px-4" : "";
  return <ul className={`${spacing} divide-y divide-slate-100${frame} ${className}`.trim()}>{items.map(children)}</ul>;
}
