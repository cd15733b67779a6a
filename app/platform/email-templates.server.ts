import { oneLine } from "~/lib/sanitize";
import { appName } from "./env.server";

// The one template of every e-mail Shortbeat sends (docs/decisions/0211): a kind's outbox row
// (subject and plain-text body, links already absolute from APP_ORIGIN) becomes the message that
// leaves: simple HTML (one column, system fonts, real text, a button for the main link, readable in
// light and dark mode) and the plain text, both with a footer saying why the person got it. The
// catalogue below says, per kind, which category it is in: account and money mail always goes;
// news (nudges, summaries, campaign news) honours the person's setting and carries one-click
// unsubscribe (RFC 8058).

export type EmailCategory = "security" | "account" | "money" | "news";

type KindInfo = {
  category: EmailCategory;
  /** The label of the button that opens the mail's action URL (given by the caller, on our origin; docs/decisions/0288). */
  action?: string;
};

/** Kinds by name; then by prefix (a family of kinds such as account_approved, account_rejected). */
const KINDS: Record<string, KindInfo> = {
  email_verification: { category: "security", action: "Confirm e-mail address" },
  password_reset: { category: "security", action: "Choose a new password" },
  signup_existing: { category: "security" },
  admin_recovery: { category: "security" },
  account_deletion_requested: { category: "security", action: "Sign in to cancel" },
  // A creator's invitation to a named address: anyone with an account can send one, so it is held
  // to the window like the other mail a form can trigger (before the "clip" money family below).
  clipper_invitation: { category: "security", action: "Open the invitation" },
  retention_nudge: { category: "news", action: "Open your dashboard" },
  weekly_summary: { category: "news" },
  campaign_news: { category: "news", action: "See campaigns" },
  payout_paid: { category: "money" },
};

const PREFIXES: [string, KindInfo][] = [
  ["news_", { category: "news" }],
  ["payout", { category: "money" }],
  ["agreement", { category: "money" }],
  ["share_offer", { category: "money" }],
  ["campaign_", { category: "money" }],
  ["clip", { category: "money" }],
  ["account_", { category: "account" }],
  ["agency_", { category: "account" }],
  ["music_", { category: "account" }],
];

export function kindInfo(kind: string): KindInfo {
  return KINDS[kind] ?? PREFIXES.find(([p]) => kind.startsWith(p))?.[1] ?? { category: "security" };
}

/**
 * How long, per kind and address, a second e-mail of the same kind is not written (SECURITY.md:
 * 'one e-mail or text per kind and recipient within a window, whatever triggers it'). Security
 * mail, which anyone can trigger from a form (verification, reset, 'you already have an account',
 * invitations and any kind not in the catalogue), gets a window; the earlier mail's link stays
 * valid meanwhile. Notices of distinct events (a decision, a payout, a submission) have none.
 */
export const SECURITY_MAIL_WINDOW_MS = 10 * 60_000;

export function throttleWindowMs(kind: string): number | null {
  return kindInfo(kind).category === "security" ? SECURITY_MAIL_WINDOW_MS : null;
}

export function isOptional(kind: string): boolean {
  return kindInfo(kind).category === "news";
}

const WHY: Record<EmailCategory, (app: string) => string> = {
  security: (app) => `You received this e-mail because someone used this address on ${app}. If it was not you, you can ignore it.`,
  account: (app) => `You received this e-mail because it concerns your ${app} account. Account e-mails are always sent.`,
  money: (app) => `You received this e-mail because it concerns your earnings or payouts on ${app}. Payment e-mails are always sent.`,
  news: (app) => `You received this e-mail because ${app} updates are turned on for this address.`,
};

export type RenderedEmail = { subject: string; text: string; html: string; headers: Record<string, string> };

/**
 * One outbox row as the template reads it. `text` is the plain body; `userSpans` says where in it
 * the text someone typed is (JSON [[start, end], …], UTF-16 offsets, written by email.server.ts
 * from userText()); `actionUrl` is the kind's main link, given by the caller, never found in the text.
 */
export type RenderInput = { kind: string; subject: string; text: string; userSpans?: string | null; actionUrl?: string | null };

/** Links for optional mail: the one-click endpoint (RFC 8058) and the Settings page. */
export type UnsubscribeLinks = { oneClick: string; settings: string };

const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

// ---------------------------------------------------------------------------------------------
// Inert text (docs/decisions/0288). What a person typed (a name, a title, a reason) is shown as
// text: escaped, never an <a>, never the button, and with a zero-width non-joiner (U+200C) after
// each '.', ':', '/' and '@' inside anything that looks like an address, so that mail clients,
// which turn addresses in text into links themselves (Gmail, Apple Mail, Outlook), see none.
// The same holds for any address in our own text that is not on our origin.
// ---------------------------------------------------------------------------------------------

const ZWNJ = "\u200C";
/** A run without spaces that a mail client could take for an address: a scheme, www., a dotted host, an e-mail. */
const ADDRESS_LIKE = /\S*(?:[a-z][a-z0-9+.-]*:\/\/|www\.|[a-z0-9-]\.[a-z][a-z0-9-]|@[a-z0-9-])\S*/gi;

/** Text with every address-like run broken for autolinkers (the characters read the same). */
export function defuseAddresses(text: string): string {
  return text.replace(ADDRESS_LIKE, (run) => run.replace(/([.:/@])(?!\u200C)/g, `$1${ZWNJ}`));
}

/** Whether `url` is on our origin (the only links an e-mail of ours carries). */
function isOurs(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

type Segment = { text: string; user: boolean };

/** The body cut into our text and the person's text, from the stored spans (bad spans: none). */
function segmentsOf(text: string, userSpans: string | null | undefined): Segment[] {
  let spans: [number, number][] = [];
  try {
    const parsed: unknown = userSpans ? JSON.parse(userSpans) : [];
    if (Array.isArray(parsed)) spans = parsed.filter((s): s is [number, number] => Array.isArray(s) && Number.isInteger(s[0]) && Number.isInteger(s[1]));
  } catch {
    spans = [];
  }
  const out: Segment[] = [];
  let at = 0;
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    if (start < at || end < start || end > text.length) continue;
    if (start > at) out.push({ text: text.slice(at, start), user: false });
    out.push({ text: text.slice(start, end), user: true });
    at = end;
  }
  if (at < text.length) out.push({ text: text.slice(at), user: false });
  // The body trimmed, as the template always showed it.
  const first = out[0];
  if (first) out[0] = { ...first, text: first.text.trimStart() };
  const last = out.at(-1); // read after the line above: one segment is trimmed at both ends
  if (last) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out.filter((seg) => seg.text !== "");
}

/** Our text as HTML: escaped, links on our origin made links, any other address inert. */
function oursHtml(text: string, origin: string): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(URL_PATTERN)) {
    const url = m[0].replace(/[.,;:!?)]+$/, "");
    const at = m.index ?? 0;
    out += escapeHtml(text.slice(last, at));
    out += isOurs(url, origin)
      ? `<a href="${escapeHtml(url)}" style="color:#4338ca;text-decoration:underline;word-break:break-all">${escapeHtml(url)}</a>`
      : escapeHtml(defuseAddresses(url));
    last = at + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

/** Our text as plain text: any address not on our origin inert. */
function oursText(text: string, origin: string): string {
  return text.replace(URL_PATTERN, (url) => (isOurs(url.replace(/[.,;:!?)]+$/, ""), origin) ? url : defuseAddresses(url)));
}

/** The person's text, in HTML or plain: inert. */
const userHtml = (text: string) => escapeHtml(defuseAddresses(text));

const BUTTON_STYLE =
  "display:inline-block;background:#4338ca;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px;border:2px solid #4338ca";

function buttonHtml(url: string, action: string, origin: string): string {
  return `<p style="margin:20px 0"><a href="${escapeHtml(url)}" class="sb-button" style="${BUTTON_STYLE}">${escapeHtml(action)}</a></p><p class="sb-muted" style="margin:0 0 16px;font-size:13px;color:#475569">Or open this address: ${oursHtml(url, origin)}</p>`;
}

/**
 * The body's paragraphs as HTML. The button is the caller's action URL (ours, or no button), put
 * where our own text has that URL alone on a line (the address below it for copying), else after
 * the body; nothing in the text makes a button.
 */
function bodyHtml(segments: Segment[], button: { url: string; label: string } | null, origin: string): string {
  // Lines of segments; a segment never spans lines once cut at '\n'.
  const lines: Segment[][] = [[]];
  for (const seg of segments) {
    seg.text.split("\n").forEach((piece, i) => {
      if (i > 0) lines.push([]);
      if (piece) lines.at(-1)?.push({ text: piece, user: seg.user });
    });
  }
  let buttonDone = false;
  const blocks: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push(`<p style="margin:0 0 16px">${paragraph.join("<br>")}</p>`);
    paragraph = [];
  };
  for (const line of lines) {
    if (line.every((seg) => !seg.user && seg.text.trim() === "")) {
      flush();
      continue;
    }
    const [only] = line;
    if (button && !buttonDone && line.length === 1 && only && !only.user && only.text.trim() === button.url) {
      buttonDone = true;
      flush();
      blocks.push(buttonHtml(button.url, button.label, origin));
      continue;
    }
    paragraph.push(line.map((seg) => (seg.user ? userHtml(seg.text) : oursHtml(seg.text, origin))).join(""));
  }
  flush();
  if (button && !buttonDone) blocks.push(buttonHtml(button.url, button.label, origin));
  return blocks.join("\n");
}

/** The message that leaves for one outbox row. */
export function renderEmail(mail: RenderInput, origin: string, unsubscribe: UnsubscribeLinks | null): RenderedEmail {
  const app = appName();
  const info = kindInfo(mail.kind);
  const why = WHY[info.category](app);
  const subject = headerValue(mail.subject);
  const segments = segmentsOf(mail.text, mail.userSpans);
  const button = info.action && mail.actionUrl && isOurs(mail.actionUrl, origin) ? { url: mail.actionUrl, label: info.action } : null;
  const textFooter = [
    "--",
    why,
    ...(unsubscribe ? [`Unsubscribe from these e-mails: ${unsubscribe.oneClick}`, `Or change your e-mail settings: ${unsubscribe.settings}`] : []),
    `${app} · ${origin}`,
  ].join("\n");
  const body = segments.map((seg) => (seg.user ? defuseAddresses(seg.text) : oursText(seg.text, origin))).join("");
  const text = `${body}\n\n${textFooter}\n`;
  const unsubscribeHtml = unsubscribe
    ? `<p style="margin:8px 0 0"><a href="${escapeHtml(unsubscribe.oneClick)}" style="color:inherit;text-decoration:underline">Unsubscribe</a> · <a href="${escapeHtml(unsubscribe.settings)}" style="color:inherit;text-decoration:underline">E-mail settings</a></p>`
    : "";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${userHtml(subject)}</title>
<style>
  @media (prefers-color-scheme: dark) {
    .sb-page { background:#0f172a !important; }
    .sb-card { background:#1e293b !important; color:#e2e8f0 !important; border-color:#334155 !important; }
    .sb-card a { color:#a5b4fc !important; }
    .sb-card a.sb-button { color:#ffffff !important; }
    .sb-foot, .sb-muted { color:#cbd5e1 !important; }
    .sb-brand { color:#c7d2fe !important; }
  }
</style>
</head>
<body class="sb-page" style="margin:0;padding:0;background:#f1f5f9">
<div role="article" aria-roledescription="email" aria-label="${userHtml(subject)}" lang="en" style="padding:24px 12px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto">
<tr><td class="sb-brand" style="padding:0 4px 12px;font-weight:800;font-size:20px;letter-spacing:0.02em;color:#4338ca">${escapeHtml(app)}</td></tr>
<tr><td class="sb-card" style="background:#ffffff;color:#0f172a;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3">${userHtml(subject)}</h1>
${bodyHtml(segments, button, origin)}
</td></tr>
<tr><td class="sb-foot" style="padding:16px 4px;font-size:13px;color:#475569">
<p style="margin:0">${escapeHtml(why)}</p>
${unsubscribeHtml}
<p style="margin:8px 0 0">${escapeHtml(app)} · <a href="${escapeHtml(origin)}" style="color:inherit">${escapeHtml(origin.replace(/^https?:\/\//, ""))}</a></p>
</td></tr>
</table>
</div>
</body>
</html>
`;
  const headers: Record<string, string> = {};
  if (unsubscribe) {
    // RFC 8058 one-click: a mail client POSTs List-Unsubscribe=One-Click to the link.
    headers["List-Unsubscribe"] = `<${unsubscribe.oneClick}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  return { subject, text, html, headers: headerValues(headers) };
}

/**
 * A header's value as it may leave (SECURITY.md: no control character reaches a Subject or any
 * other header): every run of control characters, CR and LF included, is one space. Applied here
 * and again where delivery hands the message to the binding (email-delivery.server.ts).
 */
export function headerValue(value: string): string {
  return oneLine(value);
}

export function headerValues(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [headerValue(name), headerValue(value)]));
}
