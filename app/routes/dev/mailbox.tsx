import { data } from "react-router";
import { recentMail } from "~/dev/mailbox.server";
import { appOrigin } from "~/platform/email.server";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/mailbox";

// Development-only mailbox: the e-mail outbox, newest first (development builds, DEV_TOOLS only).
export async function loader({ request }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const to = new URL(request.url).searchParams.get("to")?.toLowerCase() ?? "";
  // E-mail links are built from APP_ORIGIN; locally the app may run on another port, so the
  // mailbox shows them against the origin it was opened on (display only, the outbox is unchanged).
  const [sent, here] = [appOrigin(), new URL(request.url).origin];
  const mails = (await recentMail(to)).map((m) => ({ ...m, bodyText: m.bodyText.replaceAll(`${sent}/`, `${here}/`) }));
  return { to, mails };
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
              <h2 className="font-semibold text-slate-900">{m.subject}</h2>
              <p className="text-xs text-slate-500">
                To {m.toEmail} · {m.kind} · {m.createdAt}
              </p>
              <Linkified text={m.bodyText} />
            </article>
          </li>
        ))}
      </ul>
    </main>
  );
}
