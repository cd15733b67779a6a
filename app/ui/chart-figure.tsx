import { type ReactNode, Suspense, useEffect, useId, useState } from "react";
import { type Column, TableHead } from "~/ui/table";

// A chart (drawn in the browser, its code loaded after hydration in its own chunk) with the same
// numbers as a table (docs/decisions/0032, 0085). The table is what screen readers read (the chart
// is hidden from them) and what everyone sees before hydration or without JavaScript; a button
// shows it on screen too. Before hydration the table sits in the chart's box (same height), so
// nothing moves when the chart replaces it. Used by /analytics, /growth and the music partner's usage.

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function ChartFigure({
  caption,
  tableLabel,
  tableCaption,
  height,
  tableMaxHeight = "max-h-80",
  chartTestId,
  chart,
  columns,
  children,
}: {
  /** The figure's caption. */
  caption: ReactNode;
  /** The visible table's name: "<tableLabel>, data table". */
  tableLabel: string;
  /** The table's own (screen-reader) caption. */
  tableCaption: string;
  /** The chart box's height class (the table's too before hydration), e.g. "h-56". */
  height: string;
  /** The shown table's maximum height class. */
  tableMaxHeight?: string;
  chartTestId?: string;
  /** The lazy chart element; rendered only once hydrated. */
  chart: ReactNode;
  columns: Column[];
  /** The table's body rows. */
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const [showTable, setShowTable] = useState(false);
  const id = useId();
  const tableId = `${id}-table`;
  const tableVisible = !hydrated || showTable;
  return (
    <figure className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" aria-labelledby={`${id}-caption`}>
      <div className="flex min-h-7 flex-wrap items-center justify-between gap-2">
        <figcaption id={`${id}-caption`} className="text-base font-semibold text-slate-900">
          {caption}
        </figcaption>
        {hydrated ? (
          <button
            type="button"
            aria-expanded={showTable}
            aria-controls={tableId}
            onClick={() => setShowTable((v) => !v)}
            className="rounded-md px-2 py-1 text-sm font-medium text-slate-700 underline underline-offset-2 hover:bg-slate-100"
          >
            {showTable ? "Hide data table" : "Show data table"}
          </button>
        ) : null}
      </div>
      {hydrated ? (
        <div aria-hidden="true" className={`mt-3 ${height} w-full`} data-testid={chartTestId}>
          <Suspense fallback={<div className="h-full w-full animate-pulse rounded-md bg-slate-50 motion-reduce:animate-none" />}>{chart}</Suspense>
        </div>
      ) : null}
      <div
        id={tableId}
        className={!hydrated ? `mt-3 ${height} overflow-auto` : showTable ? `mt-3 ${tableMaxHeight} overflow-auto` : "sr-only"}
        // A visible scrolling table must be reachable by keyboard.
        {...(tableVisible ? { tabIndex: 0, role: "region", "aria-label": `${tableLabel}, data table` } : {})}
      >
        <table className="min-w-full text-sm">
          <caption className="sr-only">{tableCaption}</caption>
          <TableHead className="sticky top-0 bg-slate-50 text-left text-slate-700" cellClassName="px-3 py-2 font-semibold" columns={columns} />
          <tbody className="divide-y divide-slate-100">{children}</tbody>
        </table>
      </div>
    </figure>
  );
}
