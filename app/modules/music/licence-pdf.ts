import { onePagePdf, type PdfColor, type PdfFont, type PdfPage, textWidth, wrapText } from "~/lib/pdf";
import { formatLicenceDate, type LicenceCertificate, licenceVerificationPath } from "./licence-code";
import { LICENCE_TERMS_GOVERNED, licenceTermLines } from "./licence-terms";

// The licence certificate as a one-page A4 PDF (what the certificate page shows: code, track,
// artist, creator, date, channels, the terms in plain words and where anyone can check it), for
// a creator to attach to a claim dispute. Pure: licences.server.ts sends it. docs/decisions/0317.

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const TEXT: PdfColor = [0.06, 0.09, 0.16]; // slate-900
const MUTED: PdfColor = [0.28, 0.33, 0.41]; // slate-600
const BRAND: PdfColor = [0.26, 0.22, 0.79];
const RULE: PdfColor = [0.8, 0.84, 0.88];
const CHANNEL_KIND = { youtube: "YouTube channel", manual: "Verified channel" } as const;

/** The certificate's PDF bytes; `origin` makes the verification address absolute. */
export function licenceCertificatePdf(licence: LicenceCertificate, appName: string, origin: string, now = new Date()): Uint8Array<ArrayBuffer> {
  const page: PdfPage = { ...A4, texts: [], rules: [], links: [], title: `${appName} licence ${licence.code}`, author: appName, createdAt: now };
  const width = A4.width - 2 * MARGIN;
  let y = A4.height - MARGIN;

  const write = (text: string, font: PdfFont, size: number, color = TEXT, x = MARGIN, maxWidth = width - (x - MARGIN)) => {
    for (const line of wrapText(text, font, size, maxWidth)) {
      y -= size * 1.35;
      page.texts.push({ x, y, size, font, text: line, color });
    }
  };
  const rule = () => {
    y -= 12;
    page.rules.push({ x1: MARGIN, y1: y, x2: A4.width - MARGIN, y2: y, width: 0.75, color: RULE });
    y -= 4;
  };
  const fact = (label: string, value: string) => {
    y -= 6;
    write(label.toUpperCase(), "bold", 8, MUTED);
    write(value, "regular", 12);
  };

  write(appName.toUpperCase(), "bold", 11, BRAND);
  write("Music licence certificate", "bold", 22);
  y -= 6;
  write("LICENCE CODE", "bold", 8, MUTED);
  write(licence.code, "mono", 16);
  rule();

  if (licence.withdrawnAt) {
    const date = formatLicenceDate(licence.withdrawnAt);
    y -= 4;
    write(`This track was withdrawn from the library on ${date}. The licence stays valid for videos published before ${date}.`, "bold", 10, [0.47, 0.21, 0.06]);
  }
  fact("Track", licence.title);
  fact("Artist", licence.artist);
  fact("Licensed to", licence.creatorName);
  fact("Date issued", formatLicenceDate(licence.createdAt));
  y -= 6;
  write("CHANNELS COVERED", "bold", 8, MUTED);
  if (licence.channels.length === 0) write("No channel was recorded with this licence.", "regular", 11, MUTED);
  for (const c of licence.channels) write(`${c.title}  (${CHANNEL_KIND[c.kind]}${c.url ? `, ${c.url}` : ""})`, "regular", 12);
  rule();

  y -= 4;
  write("Terms in plain words", "bold", 12);
  for (const term of licenceTermLines(appName, licence.title, licence.artist)) {
    y -= 3;
    const top = y;
    write(term, "regular", 9.5, TEXT, MARGIN + 12);
    page.texts.push({ x: MARGIN + 2, y: top - 9.5 * 1.35, size: 9.5, font: "regular", text: "•", color: TEXT });
  }
  y -= 4;
  write(`${LICENCE_TERMS_GOVERNED.join(" ")} ${origin}/terms-of-service#creator-agreement`, "regular", 8.5, MUTED);
  rule();

  const verifyUrl = `${origin}${licenceVerificationPath(licence.code)}`;
  y -= 2;
  write("Anyone can check this licence, without signing in, at", "regular", 10, MUTED);
  write(verifyUrl, "bold", 10);
  page.links.push({ x: MARGIN, y: y - 3, width: Math.min(width, textWidth(verifyUrl, "bold", 10)), height: 13, uri: verifyUrl });
  return onePagePdf(page);
}

/** The PDF's file name: 'Shortbeat licence SB-XXXX-XXXX-XXXX.pdf'. */
export const licencePdfName = (appName: string, code: string) => `${appName} licence ${code}.pdf`;
