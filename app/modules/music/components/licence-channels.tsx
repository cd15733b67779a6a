import type { ReactNode } from "react";
import { formatLicenceDate, type LicenceChannel, type LicenceVerification } from "../licence-code";

// What a licence is for: track, artist, creator, date and the channels it covers (the snapshot
// taken with the licence), on the owner's certificate and the public verification page. Channel
// links only on the certificate (the public page names the channels, nothing more).

const KIND_LABEL: Record<LicenceChannel["kind"], string> = { youtube: "YouTube channel", manual: "Verified channel" };

type ChannelView = Pick<LicenceChannel, "kind" | "title"> & { url?: string | null };

/** The licence's facts as a description list; `dateLabel` names its date ('Date issued', 'Valid since'). */
export function LicenceFacts({
  licence,
  dateLabel,
  links = false,
}: {
  licence: Pick<LicenceVerification, "title" | "artist" | "creatorName" | "createdAt"> & { channels: ChannelView[] };
  dateLabel: string;
  links?: boolean;
}) {
  return (
    <dl className="mt-5 grid grid-cols-1 gap-x-8 gap-y-4 sm:grid-cols-2">
      <Fact label="Track">{licence.title}</Fact>
      <Fact label="Artist">{licence.artist}</Fact>
      <Fact label="Licensed to">{licence.creatorName}</Fact>
      <Fact label={dateLabel}>
        <time dateTime={licence.createdAt}>{formatLicenceDate(licence.createdAt)}</time>
      </Fact>
      <Fact label="Channels covered" wide>
        <LicenceChannelList channels={licence.channels} links={links} />
      </Fact>
    </dl>
  );
}

function Fact({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1 text-base font-medium break-words text-slate-900">{children}</dd>
    </div>
  );
}

export function LicenceChannelList({ channels, links = false }: { channels: ChannelView[]; links?: boolean }) {
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
