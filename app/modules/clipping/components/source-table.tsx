import { Form, Link } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { formatBytes, SOURCE_NAME_MAX } from "../messages";
import type { SourceRow } from "../types";
import { failureFor } from "./page-parts";

// A source folder's videos: Download (a file saved under its name, docs/decisions/0152), and for
// the creator's own folder Rename and Delete.

export function SourceTable({ sources, own, failure }: { sources: SourceRow[]; own?: boolean; failure: ActionFailure | null }) {
  if (sources.length === 0) {
    return <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">No source videos yet.</p>;
  }
  return (
    <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
      {sources.map((s) => (
        <li key={s.id} className="flex flex-col gap-2 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            <p className="break-all font-medium text-slate-900">{s.name}</p>
            <p className="text-xs text-slate-600">
              {formatBytes(s.sizeBytes)} · <LocalTime iso={s.createdAt} />
              {s.status === "uploading"
                ? ` · Upload incomplete (${s.uploadedParts} of ${s.partCount} parts): to resume, choose this same file (${formatBytes(s.sizeBytes)}) above; Delete cancels it`
                : ""}
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            {s.status === "ready" ? (
              <a href={`/clipping/sources/${s.id}/download`} download className={buttonClass.secondary}>
                Download<span className="sr-only"> {s.name}</span>
              </a>
            ) : null}
            {own ? (
              <>
                <details className="relative">
                  <summary className={`${buttonClass.secondary} cursor-pointer list-none`}>
                    Rename<span className="sr-only"> {s.name}</span>
                  </summary>
                  <Form method="post" className="mt-2 flex items-end gap-2">
                    <input type="hidden" name="intent" value="rename" />
                    <input type="hidden" name="sourceId" value={s.id} />
                    <Field
                      label="New name"
                      name="name"
                      defaultValue={s.name}
                      maxLength={SOURCE_NAME_MAX}
                      required
                      error={failureFor(failure, "rename", "sourceId", s.id)?.errors.name}
                    />
                    <button type="submit" className={buttonClass.primary}>
                      Save
                    </button>
                  </Form>
                </details>
                <Link to={`?delete=${s.id}`} preventScrollReset className={buttonClass.dangerOutline}>
                  Delete<span className="sr-only"> {s.name}</span>
                </Link>
              </>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
