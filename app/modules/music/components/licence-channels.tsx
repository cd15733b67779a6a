import type { LicenceChannel } from "../licence-code";

// The channels a licence covers (the snapshot taken with the licence), with their kind; links
// only on the owner's certificate (the public page names the channels, nothing more).

const KIND_LABEL: Record<LicenceChannel["kind"], string> = { youtube: "YouTube channel", manual: "Verified channel" };

export function LicenceChannelList({ channels, links = false }: { channels: Pick<LicenceChannel, "kind" | "title" | "url">[]; links?: boolean }) {
  if (channels.length === 0) return <p className="text-sm text-slate-600">No channel was recorded with this licence.</p>;
  return (
    <ul className="space-y-1">
      {channels.map((c) => (
        <li key={`${c.kind}:${c.title}:${c.url ?? ""}`} className="flex flex-wrap items-baseline gap-x-2 text-base font-medium break-words text-slate-900">
          {links && c.url && /^https?:\/\//i.test(c.url) ? (
            <a href={c.url} rel="noopener noreferrer nofollow" target="_blank" className="underline underline-offset-2 hover:text-brand-700">
              {c.title}
            </a>
          ) : (
            <span>{c.title}</span>
          )}
          <span className="text-xs font-normal text-slate-600">{KIND_LABEL[c.kind]}</span>
        </li>
      ))}
    </ul>
  );
}
