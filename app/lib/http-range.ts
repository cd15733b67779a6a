// HTTP Range (RFC 9110 §14) for serving stored files: pure, so the browser-free unit tests and
// app/platform/storage.server.ts (serveObject) share it.

/**
 * Parses a single `bytes=` range against the object size. null: no (usable) Range header — the
 * whole object is sent with 200. Several ranges, another unit, or a malformed or reversed range
 * are ignored that way (RFC 9110 allows it). "unsatisfiable": a first byte at or past the end,
 * `bytes=-0`, or an empty object (416 with `Content-Range: bytes *\/size`).
 */
export function parseRange(header: string | null, size: number): { offset: number; length: number } | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Multiple ranges or another unit: ignore the header and send the whole object (RFC 9110 allows it).
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return "unsatisfiable";
  return { offset: start, length: end - start + 1 };
}
