import { segmentsOf } from "../render";

/**
 * A message's text: plain text (React escapes it), http(s) links made clickable (new tab, no
 * referrer, no opener, nofollow), mentions highlighted. Never HTML from the message.
 */
export function MessageText({ body, mentions }: { body: string; mentions: readonly { id: string; name: string }[] }) {
  return (
    <>
      {segmentsOf(body, mentions).map((s, i) =>
        s.kind === "link" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their position
          <a key={i} href={s.href} target="_blank" rel="noopener noreferrer nofollow ugc" className="break-all text-brand-700 underline">
            {s.text}
          </a>
        ) : s.kind === "mention" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their position
          <span key={i} className="rounded bg-brand-50 px-0.5 font-medium text-brand-800">
            {s.text}
          </span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their position
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}
