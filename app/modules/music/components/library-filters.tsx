import { Search, SlidersHorizontal } from "~/ui/icons";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { buttonClass } from "~/ui/button";
import { inputClass } from "~/ui/field";
import {
  BPM_MAX,
  BPM_MIN,
  DURATION_STEPS,
  GENRES,
  LIBRARY_PARAMS,
  LIBRARY_SORTS,
  MOODS,
  SEARCH_MAX,
  SORT_LABELS,
  defaultSort,
  formatDuration,
  hasFilters,
  libraryHref,
  type LibraryQuery,
  type LibrarySort,
} from "../library";

// The library's search and filters: a plain GET form (works without JavaScript: the button sends
// it and the URL holds the whole state). With JavaScript it applies itself: selects at once, the
// search and BPM fields after a pause in typing (one history entry per burst of typing, replaced
// as it goes), always to the canonical address (libraryHref). docs/decisions/0101-library-url-state.md.

type Draft = { q: string; genre: string; mood: string; bpmMin: string; bpmMax: string; durMin: string; durMax: string; sort: string };

const TYPING_DELAY_MS = 350;

function draftOf(query: LibraryQuery): Draft {
  const str = (n: number | null) => (n === null ? "" : String(n));
  return {
    q: query.q,
    genre: query.genre,
    mood: query.mood,
    bpmMin: str(query.bpmMin),
    bpmMax: str(query.bpmMax),
    durMin: str(query.durMin),
    durMax: str(query.durMax),
    // "" = the default sort (best match while searching, else newest)
    sort: query.sort === defaultSort(query.q) ? "" : query.sort,
  };
}

function hrefOf(draft: Draft, base: LibraryQuery): string {
  const num = (v: string) => (/^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : null);
  const q = draft.q.trim();
  const sort = (LIBRARY_SORTS as readonly string[]).includes(draft.sort) ? (draft.sort as LibrarySort) : defaultSort(q);
  return libraryHref({
    q,
    genre: draft.genre as LibraryQuery["genre"],
    mood: draft.mood as LibraryQuery["mood"],
    bpmMin: num(draft.bpmMin),
    bpmMax: num(draft.bpmMax),
    durMin: num(draft.durMin),
    durMax: num(draft.durMax),
    sort: sort === "relevance" && !q ? "newest" : sort,
    page: 1,
    ids: base.ids,
  });
}

export function LibraryFilters({ query, resultsLabel }: { query: LibraryQuery; resultsLabel: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(query));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** The address this form navigated to last; a different one (back button, a link) resets the fields. */
  const own = useRef<string | null>(null);
  /** A burst of typing is under way: its later steps replace the history entry its first step added. */
  const typing = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the address changes; `query` is that address's state
  useEffect(() => {
    const here = location.pathname + location.search;
    if (own.current !== here) {
      setDraft(draftOf(query));
      typing.current = false;
    }
    own.current = null;
  }, [location.key]);

  useEffect(() => () => (timer.current ? clearTimeout(timer.current) : undefined), []);

  const go = (next: Draft, how: "now" | "typed") => {
    if (timer.current) clearTimeout(timer.current);
    const run = () => {
      const href = hrefOf(next, query);
      if (href === location.pathname + location.search) return;
      own.current = href;
      const replace = how === "typed" && typing.current;
      if (how === "typed") typing.current = true;
      else typing.current = false;
      navigate(href, { replace, preventScrollReset: true });
    };
    if (how === "now") run();
    else timer.current = setTimeout(run, TYPING_DELAY_MS);
  };

  const change = (how: "now" | "typed") => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const next = { ...draft, [keyOf(e.target.name)]: e.target.value };
    setDraft(next);
    go(next, how);
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    typing.current = false;
    go(draft, "now");
  };

  const sortValue = draft.sort || defaultSort(draft.q);
  const searching = draft.q.trim() !== "";
  const activeFilters = [query.genre, query.mood, query.bpmMin !== null || query.bpmMax !== null, query.durMin !== null || query.durMax !== null].filter(
    Boolean,
  ).length;

  return (
    // biome-ignore lint/a11y/useSemanticElements: a <form role="search"> is the search landmark; a <search> wrapper would add a second element for the same thing
    <form
      method="get"
      action="/music"
      role="search"
      aria-label="Music library filters"
      onSubmit={submit}
      className="mb-5 grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-4 md:grid-cols-4 xl:grid-cols-[minmax(14rem,2fr)_repeat(3,minmax(0,1fr))_auto]"
    >
      <div className="col-span-2 md:col-span-4 xl:col-span-1">
        <label htmlFor="library-q" className="block text-sm font-medium text-slate-800">
          Search
        </label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 mt-0.5 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <input
            id="library-q"
            name={LIBRARY_PARAMS.q}
            type="search"
            value={draft.q}
            onChange={change("typed")}
            maxLength={SEARCH_MAX}
            placeholder="Title, artist or tag"
            autoComplete="off"
            aria-describedby="library-results-count"
            className={`${inputClass} pl-9`}
          />
        </div>
      </div>
      {/* Small screens: the filters fold behind "Filters" so the first screen shows tracks. A CSS
          toggle (a checkbox and its label), so it works before and without JavaScript; open from
          the start when a filter is on. From md up the filters always show (docs/decisions/0243). */}
      <input
        id="library-filters-toggle"
        type="checkbox"
        className="peer sr-only md:hidden"
        defaultChecked={activeFilters > 0}
        aria-controls="library-filters-more library-filters-ranges"
      />
      <label
        htmlFor="library-filters-toggle"
        className={`${buttonClass.secondary} col-span-2 cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 md:hidden`}
      >
        <SlidersHorizontal className="h-4 w-4" aria-hidden="true" />
        {activeFilters > 0 ? `Filters (${activeFilters} on)` : "Filters"}
      </label>
      <div id="library-filters-more" className="col-span-2 hidden grid-cols-2 gap-3 peer-checked:grid md:contents">
        <LabelledSelect id="library-genre" label="Genre" name={LIBRARY_PARAMS.genre} value={draft.genre} onChange={change("now")}>
          <option value="">All genres</option>
          {GENRES.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </LabelledSelect>
        <LabelledSelect id="library-mood" label="Mood" name={LIBRARY_PARAMS.mood} value={draft.mood} onChange={change("now")}>
          <option value="">All moods</option>
          {MOODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </LabelledSelect>
      </div>
      <LabelledSelect
        id="library-sort"
        label="Sort by"
        className="col-span-2 md:col-span-1"
        name={LIBRARY_PARAMS.sort}
        value={sortValue}
        onChange={change("now")}
      >
        {LIBRARY_SORTS.filter((s) => s !== "relevance" || searching || sortValue === "relevance").map((s) => (
          <option key={s} value={s}>
            {SORT_LABELS[s]}
          </option>
        ))}
      </LabelledSelect>
      <div className="order-last col-span-2 flex items-end gap-2 md:order-none md:col-span-1 xl:row-span-2 xl:flex-col xl:items-stretch xl:justify-end">
        <button type="submit" className={`${buttonClass.primary} flex-1 xl:flex-none`}>
          Search
        </button>
        {hasFilters(query) ? (
          <Link to="/music" className={`${buttonClass.secondary} flex-1 xl:flex-none`}>
            Clear filters
          </Link>
        ) : null}
      </div>
      <div id="library-filters-ranges" className="col-span-2 hidden gap-3 peer-checked:grid md:contents">
        <RangeFieldset legend="BPM">
          <BpmInput bound="min" label="Lowest BPM" value={draft.bpmMin} onChange={change("typed")} />
          <BpmInput bound="max" label="Highest BPM" value={draft.bpmMax} onChange={change("typed")} />
        </RangeFieldset>
        <RangeFieldset legend="Length">
          <LengthSelect bound="min" label="Shortest length" value={draft.durMin} onChange={change("now")} />
          <LengthSelect bound="max" label="Longest length" value={draft.durMax} onChange={change("now")} />
        </RangeFieldset>
      </div>
      <p id="library-results-count" className="col-span-2 self-end text-sm text-slate-600 md:col-span-4 xl:col-span-1" role="status">
        {resultsLabel}
      </p>
    </form>
  );
}

/** The steps, plus a value from the URL that is not one of them (dur_min=50 still shows as chosen). */
function durationOptions(current: string): number[] {
  const n = /^\d+$/.test(current) ? Number(current) : null;
  const steps: number[] = [...DURATION_STEPS];
  if (n !== null && !steps.includes(n)) steps.push(n);
  return steps.sort((a, b) => a - b);
}

/** A lower and an upper bound side by side, under one legend. */
function RangeFieldset({ legend, children: [from, to] }: { legend: string; children: [ReactNode, ReactNode] }) {
  return (
    <fieldset className="col-span-2 min-w-0">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="flex items-center gap-2">
        {from}
        <span className="mt-1 text-slate-500" aria-hidden="true">
          –
        </span>
        {to}
      </div>
    </fieldset>
  );
}

type BoundProps<E> = { bound: "min" | "max"; label: string; value: string; onChange: (e: ChangeEvent<E>) => void };

function BpmInput({ bound, label, value, onChange }: BoundProps<HTMLInputElement>) {
  const id = `library-bpm-${bound}`;
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={bound === "min" ? LIBRARY_PARAMS.bpmMin : LIBRARY_PARAMS.bpmMax}
        type="number"
        inputMode="numeric"
        min={BPM_MIN}
        max={BPM_MAX}
        step={1}
        placeholder={`${bound === "min" ? BPM_MIN : BPM_MAX}`}
        value={value}
        onChange={onChange}
        className={inputClass}
      />
    </>
  );
}

function LengthSelect({ bound, label, value, onChange }: BoundProps<HTMLSelectElement>) {
  const id = `library-dur-${bound}`;
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        name={bound === "min" ? LIBRARY_PARAMS.durMin : LIBRARY_PARAMS.durMax}
        value={value}
        onChange={onChange}
        className={`${inputClass} bg-white`}
      >
        <option value="">Any</option>
        {durationOptions(value).map((s) => (
          <option key={s} value={s}>
            {`${bound === "min" ? "from" : "up to"} ${formatDuration(s)}`}
          </option>
        ))}
      </select>
    </>
  );
}

const PARAM_KEYS = Object.fromEntries(Object.entries(LIBRARY_PARAMS).map(([k, v]) => [v, k])) as Record<string, keyof Draft>;
const keyOf = (name: string): keyof Draft => PARAM_KEYS[name] ?? "q";

function LabelledSelect({
  id,
  label,
  name,
  value,
  onChange,
  children,
  className = "",
}: {
  className?: string;
  id: string;
  label: string;
  name: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLSelectElement>) => void;
  children: ReactNode;
}) {
  return (
    <div className={`min-w-0 ${className}`.trim()}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} name={name} value={value} onChange={onChange} className={`${inputClass} bg-white`}>
        {children}
      </select>
    </div>
  );
}
