import { type FormEvent, useState } from "react";
import { Button } from "~/ui/button";
import { inputClass } from "~/ui/field";
import type { ChannelSource } from "../../types";
import { API, imageFromApi, readJson, type RunTask } from "../api";

// A creator's channel thumbnail as a layer: find the linked channel by its name or its creator's
// e-mail, open its stored thumbnail (decision 0184).

type Props = { busy: string | null; run: RunTask; onImage: (image: Blob) => Promise<void> };

export function ChannelPanel({ busy, run, onImage }: Props) {
  const [channelSearch, setChannelSearch] = useState("");
  const [channels, setChannels] = useState<ChannelSource[] | null>(null);

  function findChannels(e: FormEvent) {
    e.preventDefault();
    return run("channels", async () => {
      const res = await fetch(`${API}?channels=${encodeURIComponent(channelSearch)}`);
      const body = await readJson(res);
      if (!res.ok) throw new Error(body.error ?? "No channels found.");
      setChannels(body.channels as ChannelSource[]);
    });
  }

  function openChannelThumbnail(channelId: string) {
    return run("channel", async () => {
      const form = new FormData();
      form.set("intent", "channel-thumbnail");
      form.set("channelId", channelId);
      await onImage(await imageFromApi(form, "The channel's thumbnail could not be opened."));
    });
  }

  return (
    <section className="rounded-md border border-slate-200 p-3" aria-labelledby="thumb-channel-heading">
      <h2 id="thumb-channel-heading" className="text-sm font-semibold text-slate-900">
        Creator's channel thumbnail
      </h2>
      <form className="mt-1 flex gap-2" onSubmit={findChannels}>
        <label className="sr-only" htmlFor="thumb-channel-search">
          Channel name or creator's e-mail
        </label>
        <input
          id="thumb-channel-search"
          className={inputClass}
          placeholder="Channel name or e-mail"
          value={channelSearch}
          maxLength={200}
          onChange={(e) => setChannelSearch(e.target.value)}
        />
        <Button type="submit" disabled={busy !== null}>
          Find
        </Button>
      </form>
      {channels ? (
        channels.length ? (
          <ul className="mt-2 space-y-1" aria-label="Linked channels">
            {channels.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-2 text-sm text-slate-800">
                <span className="min-w-0 truncate">
                  {c.title}
                  {c.handle ? <span className="text-slate-600"> {c.handle}</span> : null}
                </span>
                {c.hasThumbnail ? (
                  <Button disabled={busy !== null} onClick={() => openChannelThumbnail(c.id)} aria-label={`Open the thumbnail of ${c.title}`}>
                    Open
                  </Button>
                ) : (
                  <span className="shrink-0 text-xs text-slate-600">No thumbnail stored</span>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-slate-700">No linked channel matches.</p>
        )
      ) : null}
    </section>
  );
}
