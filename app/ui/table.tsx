import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

// Data tables in the look of the admin console. A wide table scrolls sideways inside its region;
// the region is focusable (so the keyboard can scroll it) and named by its heading or label.

/** The scrolling, bordered frame around a table. Name it with `labelledBy` (a heading's id) or `label`. */
export function TableRegion({ labelledBy, label, className = "", children }: { labelledBy?: string; label?: string; className?: string; children: ReactNode }) {
  return (
    <section
      tabIndex={0}
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : label}
      className={`relative overflow-x-auto rounded-xl border border-slate-200 bg-white ${className}`}
    >
      {children}
    </section>
  );
}

/**
 * Below 640 px a `stacked` table shows each row as a card: one cell per line, its column's name
 * (the cell's `label`) on the left and the value on the right, so amounts are seen without a
 * sideways scroll. The header row stays for screen readers only.
 */
const STACKED =
  "max-sm:block max-sm:[&_thead]:sr-only max-sm:[&_tbody]:block max-sm:[&_tr]:block max-sm:[&_tr]:py-2 max-sm:[&_td]:block max-sm:[&_td]:py-1 max-sm:[&_td:empty]:hidden " +
  // A labelled cell: its column's name on the left, its value (one element) on the right.
  "max-sm:[&_td[data-label]]:flex max-sm:[&_td[data-label]]:items-baseline max-sm:[&_td[data-label]]:justify-between max-sm:[&_td[data-label]]:gap-4 max-sm:[&_td[data-label]]:text-right " +
  "max-sm:[&_td[data-label]]:before:content-[attr(data-label)] max-sm:[&_td[data-label]]:before:shrink-0 max-sm:[&_td[data-label]]:before:text-left max-sm:[&_td[data-label]]:before:font-normal max-sm:[&_td[data-label]]:before:text-slate-600";

/** The table itself; `caption` (visually hidden) says what its rows are. `stacked`: cards below 640 px (give each `Td` its `label`). */
export function Table({
  caption,
  className = "",
  stacked = false,
  children,
}: {
  caption?: string;
  className?: string;
  stacked?: boolean;
  children: ReactNode;
}) {
  return (
    <table className={`w-full text-left text-sm ${stacked ? STACKED : ""} ${className}`}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      {children}
    </table>
  );
}

/** A column of a `TableHead`: its label, or the label with extra classes for its `<th>`. */
export type Column = string | { label: ReactNode; className?: string; key?: string };

/**
 * The header row. Pass the headings as `columns` (each `<th scope="col">` gets `cellClassName` plus the column's own classes)
 * or as `children`. `className` styles the `<thead>`.
 */
export function TableHead({
  columns,
  cellClassName = "px-4 py-3",
  className = "border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase",
  children,
}: {
  columns?: Column[];
  cellClassName?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <thead className={className}>
      <tr>
        {columns?.map((c, i) => {
          const col = typeof c === "string" ? { label: c } : c;
          return (
            <th
              key={col.key ?? (typeof col.label === "string" ? col.label : i)}
              scope="col"
              className={col.className ? `${cellClassName} ${col.className}` : cellClassName}
            >
              {col.label}
            </th>
          );
        })}
        {children}
      </tr>
    </thead>
  );
}

export function TableBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-slate-100">{children}</tbody>;
}

/** A column heading (scope="col"). */
export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`px-4 py-3 ${className}`} {...props} />;
}

/** A cell; `label` names its column on a stacked table's phone card (give a labelled cell one child element or text). */
export function Td({ className = "", label, ...props }: TdHTMLAttributes<HTMLTableCellElement> & { label?: string }) {
  return <td className={`px-4 py-3 ${className}`} data-label={label} {...props} />;
}

/**
 * A whole data table: its region (named by `labelledBy` or `label`), the table, the header row from
 * `columns`, and a row per item, its cells drawn by `children`. `rowProps` adds attributes to a
 * row (a test id). The common shape of the console's tables, written once.
 */
export function DataTable<Row>({
  labelledBy,
  label,
  className,
  caption,
  stacked,
  columns,
  rows,
  rowKey,
  rowProps,
  children,
}: {
  labelledBy?: string;
  label?: string;
  className?: string;
  caption?: string;
  stacked?: boolean;
  columns: Column[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & { "data-testid"?: string };
  children: (row: Row) => ReactNode;
}) {
  return (
    <TableRegion labelledBy={labelledBy} label={label} className={className}>
      <Table caption={caption} stacked={stacked}>
        <TableHead columns={columns} />
        <TableBody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {children(row)}
            </tr>
          ))}
        </TableBody>
      </Table>
    </TableRegion>
  );
}

/** A bordered frame that scrolls a wide table sideways: focusable (keyboard scrolling) and named by the heading `labelledBy`. */
export function ScrollRegion({ labelledBy, className = "", children }: { labelledBy: string; className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable scroll container (axe: scrollable-region-focusable), not a page section
    <div
      className={`relative ${className} overflow-x-auto rounded-xl border border-slate-200 bg-white`}
      tabIndex={0}
      role="region"
      aria-labelledby={labelledBy}
    >
      {children}
    </div>
  );
}
