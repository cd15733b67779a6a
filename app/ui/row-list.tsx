import type { ReactNode } from "react";

/**
 * A list of rows in a white card, or one line of text when there are none: the console's lists
 * (muted users, the chat feed, published tracks, payouts, agreements) look and read alike.
 * `children` draws one row (an `<li>` with its key).
 */
export function RowList<T>({
  items,
  empty,
  spacing = "mt-2",
  className = "",
  children,
}: {
  items: readonly T[];
  empty: ReactNode;
  /** The gap above the list or the empty line. */
  spacing?: string;
  /** More classes for the list (for example its text size). */
  className?: string;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return <p className={`${spacing} text-sm text-slate-600`}>{empty}</p>;
  return <ul className={`${spacing} divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-4 ${className}`.trim()}>{items.map(children)}</ul>;
}
