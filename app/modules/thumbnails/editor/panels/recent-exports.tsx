import { useState } from "react";
import { useRevalidator } from "react-router";
import { Button } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import { toast } from "~/ui/toaster";
import { THUMBNAIL_MESSAGES } from "../../messages";
import type { ExportSummary } from "../../types";
import { API, readJson } from "../api";

// The recent exports, each with its download and a form that sends it to the creator.

export function RecentExports({ exports }: { exports: ExportSummary[] }) {
  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">Recent exports</h2>
      {exports.length === 0 ? <p className="mt-1 text-sm text-slate-600">No exports yet.</p> : null}
      <ul className="mt-2 space-y-3">
        {exports.map((x) => (
          <li key={x.id} className="flex gap-3">
            <img src={x.url} alt={`${x.name} thumbnail`} className="h-16 w-auto rounded border border-slate-200 bg-slate-100 object-contain" loading="lazy" />
            <div className="min-w-0 flex-1 text-sm">
              <p className="truncate font-medium text-slate-900">{x.name}</p>
              <p className="text-slate-600">
                {x.contentType === "image/png" ? "PNG" : "JPEG"} {x.width}×{x.height} · <LocalTime iso={x.createdAt} withTime />
              </p>
              <a className="underline" href={x.url} download>
                Download
              </a>
              {x.sentAt ? <p className="text-slate-600">Sent to the creator.</p> : <SendForm exportId={x.id} name={x.name} />}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SendForm({ exportId, name }: { exportId: string; name: string }) {
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const id = `send-${exportId}`;
  return (
    <form
      className="mt-1 flex flex-wrap items-end gap-1"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData();
        form.set("intent", "send-export");
        form.set("exportId", exportId);
        form.set("email", email);
        const res = await fetch(API, { method: "POST", body: form });
        const body = await readJson(res);
        if (res.ok && body.ok) {
          toast.success(THUMBNAIL_MESSAGES.sent);
          revalidator.revalidate();
        } else setStatus(body.error ?? "Not sent.");
      }}
    >
      <label htmlFor={id} className="sr-only">
        Creator's e-mail for {name}
      </label>
      <input
        id={id}
        type="email"
        required
        placeholder="creator@example.com"
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Button type="submit">Send to creator</Button>
      {status ? (
        <p role="alert" className="w-full text-xs text-red-700">
          {status}
        </p>
      ) : null}
    </form>
  );
}
