import { describe, expect, it } from "vitest";
import { fetchApp } from "../helpers";
import { present } from "../../helpers/present";

// React's Node build of the server renderer (app/entry.server.tsx, decision 0318) writes HTML into
// a module-level byte view that every request in the isolate shares; React resets it at the start
// of each flush and sends it at the end, within one synchronous block. Two pages rendered at once
// in this isolate, their streams read in turn one chunk at a time (every await interleaved), each
// arrive whole and alone: the same bytes as when rendered by themselves.

/** A page's HTML with what differs per request (the CSP nonce, request ids) made equal. */
function normalized(html: string): string {
  const nonce = html.match(/nonce="([^"]+)"/)?.[1];
  const same = nonce ? html.split(nonce).join("<nonce>") : html;
  return same.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>");
}

async function alone(path: string): Promise<string> {
  const res = await fetchApp(path);
  expect(res.status).toBe(200);
  return normalized(await res.text());
}

/** Reads both responses' streams in turn, one chunk each, until both end. */
async function interleaved(paths: string[]): Promise<{ html: string[]; chunks: number[] }> {
  const responses = await Promise.all(paths.map((p) => fetchApp(p)));
  const readers = responses.map((r) => (r.body as ReadableStream<Uint8Array>).getReader());
  const parts: Uint8Array[][] = paths.map(() => []);
  const done = paths.map(() => false);
  while (done.includes(false)) {
    for (const [i, reader] of readers.entries()) {
      if (done[i]) continue;
      const { value, done: end } = await reader.read();
      if (end) done[i] = true;
      else present(parts[i], `the chunks of ${paths[i]}`).push(value);
    }
  }
  const decoder = new TextDecoder();
  return {
    html: parts.map((chunks) => normalized(chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode())),
    chunks: parts.map((chunks) => chunks.length),
  };
}

describe("two pages rendered at once in one isolate", () => {
  it("each page's bytes arrive whole and alone, read chunk by chunk in turn", async () => {
    const paths = ["/terms-of-service", "/privacy-policy", "/music-partner-terms"];
    const expected = await Promise.all(paths.map(alone));
    for (let round = 0; round < 3; round++) {
      const { html, chunks } = await interleaved(paths);
      for (const [i, page] of html.entries()) {
        expect(page.startsWith("<!DOCTYPE html>"), paths[i]).toBe(true);
        expect(page.endsWith("</html>"), paths[i]).toBe(true);
        expect(page.match(/<!DOCTYPE html>/g)?.length, paths[i]).toBe(1);
        const alonePage = present(expected[i], `${paths[i]} rendered alone`);
        let at = 0;
        while (at < page.length && page[at] === alonePage[at]) at++;
        expect(page.slice(Math.max(0, at - 80), at + 80), `${paths[i]} equals the page rendered alone`).toBe(alonePage.slice(Math.max(0, at - 80), at + 80));
      }
      // The pages are long enough to go out in more than one chunk (4 KB views), so the reads did interleave.
      expect(Math.min(...chunks)).toBeGreaterThan(1);
    }
  });
});
