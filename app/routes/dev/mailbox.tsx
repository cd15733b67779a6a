import { data } from "react-router";
import { recentMail } from "~/dev/mailbox.server";
import { recentTexts } from "~/dev/dev-sms.server";
import { appOrigin } from "~/platform/email.server";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/mailbox";

// Development-only mailbox: the e-mail outbox, newest first, with each e-mail's delivery status
// (through the EMAIL binding, Miniflare's locally), and the texts the stand-in SMS provider
// received. Development builds, DEV_TOOLS only.
export async function loader({ request }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const to = new URL(request.url).searchParams.get("to")?.toLowerCase() ?? "";
  // E-mail links are built from APP_ORIGIN; locally the app may run on another port, so the
  // mailbox shows them against the origin it was opened on (display only, the outbox is unchanged).
  const [sent, here] = [appOrigin(), new URL(request.url).origin];
  const [mails, texts] = await Promise.all([recentMail(to), recentTexts(to)]);
  return {
    to,
    mails: [
      ...mails.map((m) => ({ ...m, bodyText: m.bodyText.replaceAll(`${sent}/`, `${here}/`), channel: "email" as const })),
      ...texts.map((t) => ({
        id: t.sid,
        toEmail: t.to,
        kind: "sms",
        subject: `Text message to ${t.to}`,
        createdAt: t.createdAt,
        status: "sent" as const,
        attempts: 1,
        sentAt: t.createdAt,
        nextAttemptAt: null,
        lastError: null,
        messageId: t.sid,
        bodyText: t.body,
        channel: "sms" as const,
      })),
    ].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
  };
}

export const meta = () => [{ title: "Mailbox (development) | Shortbeat" }];

function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <p className="mt-3 text-sm whitespace-pre-wrap text-slate-700">
      {parts.map((p, i) =>
        /^https?:\/\//.test(p) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a static split of one text
          <a key={i} href={p} className="break-all text-brand-700 underline">
            {p}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a static split of one text
          <span key={i}>{p}</span>
        ),
      )}
    </p>
  );
}

const STATUS_STYLE: Record<string, string> = {
  sent: "bg-emerald-100 text-emerald-900",
  queued: "bg-slate-100 text-slate-800",
  sending: "bg-sky-100 text-sky-900",
  retrying: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-900",
};

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl p-4 sm:p-6">
      <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">Development only</p>
      <h1 className="text-2xl font-bold text-slate-900">Mailbox</h1>
      <form method="get" className="mt-4 flex gap-2">
        <label htmlFor="to" className="sr-only">
          Recipient
        </label>
        <input
          id="to"
          name="to"
          defaultValue={loaderData.to}
          placeholder="Filter by recipient"
          className="flex-1 rounded-md border border-slate-300 px-3 py-2"
        />
        <button type="submit" className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white">
          Filter
        </button>
      </form>
      {loaderData.mails.length === 0 ? <p className="mt-6 text-slate-600">No e-mails yet.</p> : null}
      <ul className="mt-6 space-y-4">
        {loaderData.mails.map((m) => (
          <li key={m.id}>
            <article className="rounded-lg border border-slate-200 bg-white p-4" aria-label={m.subject}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h2 className="font-semibold text-slate-900">{m.subject}</h2>
                <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[m.status] ?? ""}`} data-status={m.status}>
                  {m.status === "sent"
                    ? "Sent"
                    : m.status === "retrying"
                      ? `Retrying (${m.attempts} tries)`
                      : m.status.charAt(0).toUpperCase() + m.status.slice(1)}
                </span>
              </div>
              <p className="text-xs break-all text-slate-600">
                To {m.toEmail} · {m.kind} · {m.createdAt}
                {m.sentAt && m.channel === "email" ? ` · sent ${m.sentAt}` : ""}
                {m.messageId && m.channel === "email" ? ` · ${m.messageId}` : ""}
              </p>
              {m.lastError ? <p className="mt-1 text-xs text-red-800">Last error: {m.lastError}</p> : null}
              <Linkified text={m.bodyText} />
              {m.channel === "email" ? (
                <p className="mt-2 text-xs">
                  <a href={`/dev/mailbox/${m.id}`} className="text-brand-700 underline">
                    View as sent (HTML)
                  </a>
                </p>
              ) : null}
            </article>
          </li>
        ))}
      </ul>
    </main>
  );
}
