import { Link } from "react-router";
import { formatCount } from "~/lib/format";
import { buttonClass } from "./button";

/**
 * Previous/next links (build them with `hrefWith` from ~/lib/href to keep the other query parameters).
 * `more`: the total was counted up to a cap and there are more (capped-count.server.ts, 0340): it
 * reads "Page 1 of 500+ · 10,000+ users", and the last page asks to narrow the filters.
 */
export function Pagination({
  page,
  pageCount,
  total,
  more = false,
  hrefFor,
  label,
  singular = label.replace(/s$/, ""),
}: {
  page: number;
  pageCount: number;
  total: number;
  more?: boolean;
  hrefFor: (page: number) => string;
  label: string;
  singular?: string;
}) {
  const plus = more ? "+" : "";
  if (pageCount <= 1 && !more) return <p className="mt-4 text-sm text-slate-600">{total === 1 ? `1 ${singular}` : `${total} ${label}`}</p>;
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-600">
        {`Page ${page} of ${pageCount}${plus} · ${formatCount(total)}${plus} ${label}`}
        {more && page >= pageCount ? ` · narrow the filters to see the rest` : null}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link className={buttonClass.secondary} to={hrefFor(page - 1)} preventScrollReset>
            Previous
          </Link>
        ) : (
          <span className={`${buttonClass.secondary} pointer-events-none opacity-50`} aria-disabled="true">
            Previous
          </span>
        )}
        {page < pageCount ? (
          <Link className={buttonClass.secondary} to={hrefFor(page + 1)} preventScrollReset>
            Next
          </Link>
        ) : (
          <span className={`${buttonClass.secondary} pointer-events-none opacity-50`} aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
