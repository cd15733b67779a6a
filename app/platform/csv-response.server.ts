import { attachmentDisposition } from "./storage.server";

// How every generated file the app answers is sent: CSV statements, payout runs, analytics,
// inactive users, the data exports, the referral QR codes. Downloads are attachments (RFC 6266,
// any name survives), never cached, never sniffed into another type.

/** A generated file: saved under `filename` (or shown inline without one), private, not cached. */
export function downloadResponse(body: BodyInit, contentType: string, filename: string | null): Response {
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      ...(filename ? { "Content-Disposition": attachmentDisposition(filename) } : {}),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

// CSV: UTF-8 with a byte-order mark first. Excel reads a CSV as UTF-8 only when it starts with one,
// and without it an em dash in a campaign name or an accented name garbles. The cells themselves
// are app/lib/csv.ts's (quoting, no formulas).

export const UTF8_BOM = "\uFEFF";

export function csvResponse(filename: string, csv: string): Response {
  return downloadResponse(`${UTF8_BOM}${csv}`, "text/csv; charset=utf-8", filename);
}
