import { Form } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { refilled } from "~/ui/action-failure";
import { formatBp } from "~/lib/split";
import { buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { Select } from "~/ui/select";
import { CLIP_PLATFORM_LABELS } from "../messages";
import type { LinkRow, SourceRow } from "../types";
import { failureFor, LinkStatus, SplitHistory } from "./page-parts";
import { SourceTable } from "./source-table";

// A creator the clipper clips for: their split, their folder, a clip to submit, a higher split to ask.

export function CreatorCard({ link, failure }: { link: LinkRow & { sources: SourceRow[] }; failure: ActionFailure | null }) {
  const pending = link.splits.find((s) => s.status === "pending");
  const clipFailure = failureFor(failure, "submit-clip", "linkId", link.id);
  const splitFailure = failureFor(failure, "request-split", "linkId", link.id);
  const ready = link.sources.filter((s) => s.status === "ready");
  return (
    <li className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">{link.personName}</h3>
        <LinkStatus link={link} />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Your split: <strong>{formatBp(link.shareBps)}</strong> clipper, {formatBp(10_000 - link.shareBps)} creator.
      </p>
      <SplitHistory splits={link.splits} />
      {link.status !== "active" ? (
        <p className="mt-2 text-sm text-slate-700">This creator revoked your access. Your clips stay recorded.</p>
      ) : (
        <>
          <h4 className="mt-4 text-sm font-semibold text-slate-900">Source folder</h4>
          <SourceTable sources={ready} failure={failure} />

          <div className="mt-4 grid min-w-0 grid-cols-1 gap-6 lg:grid-cols-2">
            <Form method="post" className="min-w-0 space-y-3" aria-label={`Submit a clip for ${link.personName}`}>
              <h4 className="text-sm font-semibold text-slate-900">Submit a clip</h4>
              <input type="hidden" name="intent" value="submit-clip" />
              <input type="hidden" name="linkId" value={link.id} />
              <Select
                label="Platform"
                options={Object.entries(CLIP_PLATFORM_LABELS).map(([value, label]) => ({ value, label }))}
                {...refilled(clipFailure, "platform", "youtube_shorts")}
              />
              <Field label="Clip URL" type="url" required placeholder="https://www.youtube.com/shorts/…" {...refilled(clipFailure, "url")} />
              <Select
                label="Source video"
                options={[{ value: "", label: "Choose a source video" }, ...ready.map((s) => ({ value: s.id, label: s.name }))]}
                {...refilled(clipFailure, "sourceId")}
              />
              <button type="submit" className={buttonClass.primary}>
                Submit clip
              </button>
            </Form>

            <Form method="post" className="min-w-0 space-y-3" aria-label={`Request a higher split from ${link.personName}`}>
              <h4 className="text-sm font-semibold text-slate-900">Request a higher split</h4>
              <input type="hidden" name="intent" value="request-split" />
              <input type="hidden" name="linkId" value={link.id} />
              {pending ? (
                <p className="text-sm text-slate-700">
                  You asked for {formatBp(pending.shareBps)}; waiting for the creator (asked <LocalTime iso={pending.createdAt} withTime />
                  ).
                </p>
              ) : (
                <>
                  <Field
                    label="Your share (%)"
                    inputMode="decimal"
                    required
                    hint="Applies only to revenue after the creator confirms it."
                    {...refilled(splitFailure, "sharePercent")}
                  />
                  <button type="submit" className={buttonClass.secondary}>
                    Request split
                  </button>
                </>
              )}
            </Form>
          </div>
        </>
      )}
    </li>
  );
}
