// How every CSV file the app answers is sent (statements, payout runs, analytics, inactive users).
// UTF-8 with a byte-order mark first: Excel reads a CSV as UTF-8 only when it starts with one, and
// without it an em dash in a campaign name or an accented name garbles. The cells themselves are
// app/lib/csv.ts's (quoting, no formulas). Downloads are attachments and never cached.

export const UTF8_BOM = "\uFEFF";

export function csvResponse(filename: string, csv: string): Response {
  return new Response(`${UTF8_BOM}${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
