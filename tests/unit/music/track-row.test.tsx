import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatDuration, type LibraryTrack, spokenDuration, trackFactsLine, WAVEFORM_BARS } from "~/modules/music/library";
import { TrackRow } from "~/modules/music/components/track-row";
import { Waveform } from "~/modules/music/components/waveform";
import { SimilarLink } from "~/modules/music/components/similar-link";
import { ListMusic, Music, Play } from "~/ui/icons";

// A library row's static cells are one string each (docs/decisions/0354). Two things must hold:
// the row writes the HTML React wrote when every part was an element (so the screen, the names
// screen readers hear and hydration are unchanged), and every value a music partner chose (title,
// artist, tags, genre, mood) is text in it, never markup: no element, no attribute break-out.

const PEAKS = JSON.stringify(Array.from({ length: WAVEFORM_BARS }, (_, i) => (i * 37) % 256));

function track(over: Partial<LibraryTrack> = {}): LibraryTrack {
  return {
    id: "3f1c2a9e-1111-4222-8333-444455556666",
    title: "Neon Drive",
    artist: "Kai Summers",
    genre: "Electronic",
    mood: "Energetic",
    bpm: 128,
    durationSeconds: 95,
    tags: ["synthwave", "night", "retro", "drive", "cars"],
    peaks: PEAKS,
    licenceCount: 3,
    publishedAt: "2026-11-01T00:00:00.000Z",
    coverUrl: "/music/cover/3f1c2a9e-1111-4222-8333-444455556666",
    ...over,
  };
}

/** The row as it was written before 0354: every part a React element (its unread data-track-id left out). */
function RowAsElements({ track: t }: { track: LibraryTrack }) {
  const meta = trackFactsLine(t);
  return (
    <tr className="hover:bg-slate-50">
      <td className="py-2 pr-2 pl-3 sm:pl-4">
        <span className="relative inline-flex">
          <span className="relative inline-flex h-11 w-11 shrink-0 items-center justify-center overflow-hidden rounded-md bg-gradient-to-br from-violet-200 to-sky-200">
            <Music className="h-5 w-5 text-slate-600" aria-hidden="true" />
            {t.coverUrl ? (
              <img src={t.coverUrl} alt="" width={64} height={64} loading="lazy" decoding="async" className="absolute inset-0 h-full w-full object-cover" />
            ) : null}
          </span>
          <button
            type="button"
            aria-pressed={false}
            aria-label={`Play ${t.title} by ${t.artist}`}
            className="absolute inset-0 flex items-center justify-center rounded-md bg-slate-900/40 text-white opacity-90 hover:bg-slate-900/60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-600"
          >
            <Play className="h-5 w-5" aria-hidden="true" />
          </button>
        </span>
      </td>
      <th scope="row" className="py-2 pr-2 text-left font-normal break-words">
        <span className="block font-semibold text-slate-900">{t.title}</span>
        <span className="block text-sm text-slate-600">{t.artist}</span>
        {meta ? <span className="block text-xs text-slate-600 md:hidden">{meta}</span> : null}
        {t.tags.length ? (
          <span className="mt-0.5 hidden truncate text-xs text-slate-600 lg:block">
            <span className="sr-only">Tags: </span>
            {t.tags.slice(0, 4).join(", ")}
          </span>
        ) : null}
      </th>
      <td className="hidden px-3 py-2 text-sm text-slate-700 md:table-cell">{t.genre ?? "—"}</td>
      <td className="hidden px-3 py-2 text-sm text-slate-700 md:table-cell">{t.mood ?? "—"}</td>
      <td className="hidden px-3 py-2 text-right text-sm text-slate-700 tabular-nums md:table-cell">{t.bpm ?? "—"}</td>
      <td className="px-2 py-2 text-right text-sm text-slate-700 tabular-nums sm:px-3">
        <span aria-hidden="true">{formatDuration(t.durationSeconds)}</span>
        <span className="sr-only">{spokenDuration(t.durationSeconds)}</span>
      </td>
      <td className="hidden px-3 py-2 lg:table-cell">
        <Waveform peaks={t.peaks} bars={WAVEFORM_BARS} className="h-8 w-32" data-testid="track-waveform" />
      </td>
      <td className="py-2 pr-3 pl-1 text-right sm:pr-4">
        <div className="flex flex-wrap items-center justify-end gap-1.5">
          <button type="button">Use</button>
        </div>
      </td>
    </tr>
  );
}

// React escapes ' as &#x27;, escapeXml as &apos; (the same character in HTML): compared as one.
const sameQuote = (html: string) => html.replaceAll("&#x27;", "&apos;");
const row = (t: LibraryTrack) => sameQuote(renderToStaticMarkup(<TrackRow track={t} onPlay={() => {}} actions={<button type="button">Use</button>} />));
const asElements = (t: LibraryTrack) => sameQuote(renderToStaticMarkup(<RowAsElements track={t} />));
/** The row's tags and attribute names, in order: its structure without its text. */
const structure = (html: string) =>
  [...html.matchAll(/<\/?([a-z]+)((?:\s[a-z-]+(?:="[^"]*")?)*)\s*\/?>/gi)].map((m) => `${m[1]}${(m[2] ?? "").replace(/="[^"]*"/g, "")}`);

const HOSTILE = `<img src=x onerror=alert(1)>`;
const QUOTES = `"'&`;

describe("library row", () => {
  it("writes the same HTML as a row of elements did, with and without cover, facts and tags", () => {
    for (const t of [
      track(),
      track({ coverUrl: null, genre: null, mood: null, bpm: null, tags: [], peaks: "[]", durationSeconds: 0 }),
      track({ title: "Rock 'n' Roll & <Blues>", artist: 'The "Quoted"', tags: ["a&b"], genre: "R&B" }),
    ]) {
      expect(row(t)).toBe(asElements(t));
    }
  });

  it("shows a partner's markup as text: no element, no attribute break-out", () => {
    const hostile = track({ title: HOSTILE, artist: QUOTES, tags: [HOSTILE, QUOTES], genre: QUOTES, mood: HOSTILE });
    const html = row(hostile);
    // Nothing the partner typed became a tag or an attribute: the row has the structure of a plain one.
    expect(structure(html)).toEqual(structure(row(track())));
    expect(html).not.toContain("<img src=x");
    expect(html).not.toMatch(/onerror=(?!alert\(1\)&gt;)/);
    // …and it is there as text, escaped.
    expect(html).toContain(`<span class="block font-semibold text-slate-900">&lt;img src=x onerror=alert(1)&gt;</span>`);
    expect(html).toContain(`<span class="block text-sm text-slate-600">&quot;&apos;&amp;</span>`);
    expect(html).toContain(`<span class="sr-only">Tags: </span>&lt;img src=x onerror=alert(1)&gt;, &quot;&apos;&amp;</span>`);
    expect(html).toBe(asElements(hostile));
  });

  it("writes the similar-tracks link as it was as elements, its name escaped by React", () => {
    const t = track({ title: HOSTILE });
    const html = renderToStaticMarkup(<SimilarLink track={t} />);
    expect(html).toBe(
      renderToStaticMarkup(
        <a
          aria-label={`Similar tracks to ${HOSTILE}`}
          title="Similar tracks"
          className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full border border-slate-200 bg-white text-slate-600 hover:bg-slate-100"
          href={`/music/similar/${t.id}`}
          data-discover="true"
        >
          <ListMusic className="h-4 w-4" aria-hidden="true" />
        </a>,
      ),
    );
  });
});
