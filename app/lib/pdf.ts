// A one-page PDF 1.4 of text, rules and links, in the PDF's built-in fonts (Helvetica, Helvetica
// Bold, Courier Bold: every reader has them, so nothing is embedded and the file is a few KB).
// Enough for a certificate; no images, no compression. Written by hand rather than with a library
// (pdf-lib, jsPDF: hundreds of KB in the Worker for one page of text); docs/decisions/0317.
// The format: ISO 32000-1 (PDF 1.7, which reads 1.4 files), §7.5 file structure, §9.6.2.2 the
// standard 14 fonts, Annex D.2 WinAnsiEncoding; https://opensource.adobe.com/dc-acrobat-sdk-docs/pdfstandards/PDF32000_2008.pdf

export type PdfFont = "regular" | "bold" | "mono";

const BASE_FONT: Record<PdfFont, string> = { regular: "Helvetica", bold: "Helvetica-Bold", mono: "Courier-Bold" };
const FONT_NAME: Record<PdfFont, string> = { regular: "F1", bold: "F2", mono: "F3" };

// Glyph widths (1/1000 em) of characters 32–126, from Adobe's Helvetica and Helvetica-Bold AFM files.
const HELVETICA =
  "278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 278 278 584 584 584 556 1015 667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 333 556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500 334 260 334 584";
const HELVETICA_BOLD =
  "278 333 474 556 556 889 722 238 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 333 333 584 584 584 611 975 722 722 722 722 667 611 778 722 278 556 722 611 833 722 778 667 778 722 667 611 722 667 944 667 667 611 333 278 333 584 556 333 556 611 556 611 556 333 611 611 278 278 556 278 889 611 611 611 611 389 556 333 611 556 778 556 556 500 389 280 389 584";
const WIDTHS: Record<PdfFont, number[] | null> = {
  regular: HELVETICA.split(" ").map(Number),
  bold: HELVETICA_BOLD.split(" ").map(Number),
  mono: null, // Courier: every glyph 600
};

// WinAnsiEncoding's characters outside Latin-1 (0x80–0x9F); 0xA0–0xFF are Latin-1's own.
// biome-ignore format: a table
const WIN_ANSI: Record<string, number> = {
  "€": 0x80, "‚": 0x82, "ƒ": 0x83, "„": 0x84, "…": 0x85, "†": 0x86, "‡": 0x87, "ˆ": 0x88, "‰": 0x89, "Š": 0x8a, "‹": 0x8b, "Œ": 0x8c, "Ž": 0x8e,
  "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95, "–": 0x96, "—": 0x97, "˜": 0x98, "™": 0x99, "š": 0x9a, "›": 0x9b, "œ": 0x9c, "ž": 0x9e, "Ÿ": 0x9f,
};

/** A text's characters as WinAnsiEncoding codes: others lose their accents or become '?'; control characters become spaces. */
export function winAnsi(text: string): number[] {
  const out: number[] = [];
  for (const ch of text.normalize("NFC")) {
    const code = ch.codePointAt(0) ?? 63;
    if (code < 32 || (code >= 127 && code < 160)) out.push(32);
    else if (code < 256) out.push(code);
    else if (WIN_ANSI[ch] !== undefined) out.push(WIN_ANSI[ch]);
    else {
      const plain = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out.push(...(plain && [...plain].every((c) => (c.codePointAt(0) ?? 256) < 128) ? [...plain].map((c) => c.codePointAt(0) ?? 63) : [63]));
    }
  }
  return out;
}

/** The width of a text in points at a size (Latin-1 letters beyond ASCII counted as a digit's width). */
export function textWidth(text: string, font: PdfFont, size: number): number {
  const widths = WIDTHS[font];
  let units = 0;
  // Outside printable ASCII (or a width the table lacks) a letter counts as a digit's width, 556.
  for (const code of winAnsi(text)) units += widths ? (code >= 32 && code <= 126 ? (widths[code - 32] ?? 556) : 556) : 600;
  return (units * size) / 1000;
}

/** A text broken into lines of at most `maxWidth` points, at spaces (a word longer than a line is cut). */
export function wrapText(text: string, font: PdfFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidth(candidate, font, size) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (textWidth(rest, font, size) > maxWidth && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && textWidth(rest.slice(0, cut), font, size) > maxWidth) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

/** A PDF string literal: ( ) \ escaped, every byte above 126 as an octal escape, so the file stays ASCII. */
function pdfString(text: string): string {
  let out = "(";
  for (const code of winAnsi(text)) {
    if (code === 40 || code === 41 || code === 92) out += `\\${String.fromCharCode(code)}`;
    else if (code > 126) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(code);
  }
  return `${out})`;
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

/** RGB, each 0–1. */
export type PdfColor = readonly [number, number, number];

export type PdfPage = {
  /** Points (1/72 inch); A4 is 595.28 × 841.89. */
  width: number;
  height: number;
  /** Written top-down: y is the text's baseline, measured from the page's bottom edge (PDF's own coordinates). */
  texts: { x: number; y: number; size: number; font: PdfFont; text: string; color?: PdfColor }[];
  /** Straight lines. */
  rules: { x1: number; y1: number; x2: number; y2: number; width?: number; color?: PdfColor }[];
  /** Clickable areas that open an address. */
  links: { x: number; y: number; width: number; height: number; uri: string }[];
  /** The document's title and author (the Info dictionary). */
  title: string;
  author: string;
  /** For the CreationDate. */
  createdAt: Date;
};

const color = (c: PdfColor | undefined) => (c ?? [0, 0, 0]).map(num).join(" ");

/** The bytes of a one-page PDF 1.4. */
export function onePagePdf(page: PdfPage): Uint8Array<ArrayBuffer> {
  const content: string[] = [];
  for (const r of page.rules) content.push(`${color(r.color)} RG ${num(r.width ?? 1)} w ${num(r.x1)} ${num(r.y1)} m ${num(r.x2)} ${num(r.y2)} l S`);
  for (const t of page.texts) {
    content.push(`BT /${FONT_NAME[t.font]} ${num(t.size)} Tf ${color(t.color)} rg ${num(t.x)} ${num(t.y)} Td ${pdfString(t.text)} Tj ET`);
  }
  const stream = content.join("\n");
  const fonts = (Object.keys(BASE_FONT) as PdfFont[]).map((f) => `/${FONT_NAME[f]} ${5 + (Object.keys(BASE_FONT) as PdfFont[]).indexOf(f)} 0 R`).join(" ");
  const firstLink = 9;
  const annots = page.links.map((_, i) => `${firstLink + i} 0 R`).join(" ");
  const d = page.createdAt;
  const two = (n: number) => String(n).padStart(2, "0");
  const pdfDate = `D:${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;

  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] /Resources << /Font << ${fonts} >> >> /Contents 4 0 R${annots ? ` /Annots [${annots}]` : ""} >>`,
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    ...(Object.keys(BASE_FONT) as PdfFont[]).map((f) => `<< /Type /Font /Subtype /Type1 /BaseFont /${BASE_FONT[f]} /Encoding /WinAnsiEncoding >>`),
    `<< /Title ${pdfString(page.title)} /Author ${pdfString(page.author)} /Producer ${pdfString(page.author)} /CreationDate ${pdfString(pdfDate)} >>`,
    ...page.links.map(
      (l) =>
        `<< /Type /Annot /Subtype /Link /Rect [${num(l.x)} ${num(l.y)} ${num(l.x + l.width)} ${num(l.y + l.height)}] /Border [0 0 0] /A << /S /URI /URI ${pdfString(l.uri)} >> >>`,
    ),
  ];
  // Object 8 is the Info dictionary (after the catalog, pages, page, contents and three fonts).
  let file = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(file.length);
    file += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = file.length;
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  file += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 8 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character of `file` is one byte (the binary marker line's four are Latin-1).
  return Uint8Array.from(file, (c) => c.charCodeAt(0)) as Uint8Array<ArrayBuffer>;
}
