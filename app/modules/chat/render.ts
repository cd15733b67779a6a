// How a message's text is shown (client-safe, pure): plain text segments, links and mentions.
// Nothing is ever rendered as HTML; a link is an <a> only for http(s) URLs, with the text as typed.

export type Segment = { kind: "text"; text: string } | { kind: "link"; text: string; href: string } | { kind: "mention"; text: string; userId: string };

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that usually ends a sentence rather than a URL. */
const TRAILING = /[.,!?;:)\]}'"]+$/;

/** A safe href for a detected link, or null (only http and https, parsed by URL). */
export function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function linkSegments(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_PATTERN)) {
    const raw = m[0];
    const trimmed = raw.replace(TRAILING, "");
    const start = m.index ?? 0;
    const href = safeHref(trimmed);
    if (!href) continue;
    if (start > last) out.push({ kind: "text", text: text.slice(last, start) });
    out.push({ kind: "link", text: trimmed, href });
    last = start + trimmed.length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** The segments of a message: `@Name` of a stored mention is a mention, http(s) URLs are links. */
export function segmentsOf(body: string, mentions: readonly { id: string; name: string }[] = []): Segment[] {
  const names = [...mentions].filter((m) => m.name).sort((a, b) => b.name.length - a.name.length);
  if (names.length === 0) return linkSegments(body);
  const out: Segment[] = [];
  let rest = body;
  while (rest.length > 0) {
    let best: { at: number; m: { id: string; name: string } } | null = null;
    for (const m of names) {
      const at = rest.indexOf(`@${m.name}`);
      if (at >= 0 && (best === null || at < best.at)) best = { at, m };
    }
    if (!best) {
      out.push(...linkSegments(rest));
      break;
    }
    if (best.at > 0) out.push(...linkSegments(rest.slice(0, best.at)));
    out.push({ kind: "mention", text: `@${best.m.name}`, userId: best.m.id });
    rest = rest.slice(best.at + best.m.name.length + 1);
  }
  return out;
}
