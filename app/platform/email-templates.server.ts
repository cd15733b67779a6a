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
  /** The label of the button that opens the mail's first link (a link alone on its line). */
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

export type RenderInput = { kind: string; subject: string; text: string };

/** Links for optional mail: the one-click endpoint (RFC 8058) and the Settings page. */
export type UnsubscribeLinks = { oneClick: string; settings: string };

const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A line of text as HTML: escaped, its links made links. */
function inline(line: string): string {
  let out = "";
  let last = 0;
  for (const m of line.matchAll(URL_PATTERN)) {
    const url = m[0].replace(/[.,;:!?)]+$/, "");
    const at = m.index ?? 0;
    out += escapeHtml(line.slice(last, at));
    out += `<a href="${escapeHtml(url)}" style="color:#4338ca;text-decoration:underline;word-break:break-all">${escapeHtml(url)}</a>`;
    last = at + url.length;
  }
  return out + escapeHtml(line.slice(last));
}

const BUTTON_STYLE =
  "display:inline-block;background:#4338ca;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px;border:2px solid #4338ca";

/** The body's paragraphs as HTML; the first link alone on its line becomes the button (with the address below it for copying). */
function bodyHtml(text: string, action: string | undefined): string {
  let buttonDone = false;
  return text
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => {
      const lines = paragraph.split("\n");
      const parts = lines.map((line) => {
        const alone = /^https?:\/\/\S+$/.test(line.trim());
        if (alone && action && !buttonDone) {
          buttonDone = true;
          const url = escapeHtml(line.trim());
          return `</p><p style="margin:20px 0"><a href="${url}" style="${BUTTON_STYLE}">${escapeHtml(action)}</a></p><p class="sb-muted" style="margin:0 0 16px;font-size:13px;color:#475569">Or open this address: ${inline(line.trim())}`;
        }
        return inline(line);
      });
      return `<p style="margin:0 0 16px">${parts.join("<br>")}</p>`;
    })
    .join("\n")
    .replace(/<p style="margin:0 0 16px"><\/p>/g, "");
}

/** The message that leaves for one outbox row. */
export function renderEmail(mail: RenderInput, origin: string, unsubscribe: UnsubscribeLinks | null): RenderedEmail {
  const app = appName();
  const info = kindInfo(mail.kind);
  const why = WHY[info.category](app);
  const textFooter = [
    "--",
    why,
    ...(unsubscribe ? [`Unsubscribe from these e-mails: ${unsubscribe.oneClick}`, `Or change your e-mail settings: ${unsubscribe.settings}`] : []),
    `${app} · ${origin}`,
  ].join("\n");
  const text = `${mail.text.trim()}\n\n${textFooter}\n`;
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
<title>${escapeHtml(mail.subject)}</title>
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
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(mail.subject)}" lang="en" style="padding:24px 12px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto">
<tr><td class="sb-brand" style="padding:0 4px 12px;font-weight:800;font-size:20px;letter-spacing:0.02em;color:#4338ca">${escapeHtml(app)}</td></tr>
<tr><td class="sb-card" style="background:#ffffff;color:#0f172a;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3">${escapeHtml(mail.subject)}</h1>
${bodyHtml(mail.text, info.action).replaceAll(`style="${BUTTON_STYLE}"`, `class="sb-button" style="${BUTTON_STYLE}"`)}
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
  return { subject: mail.subject, text, html, headers };
}
