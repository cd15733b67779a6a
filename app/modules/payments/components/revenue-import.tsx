import { Form } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { countOf, formatCount } from "~/lib/format";
import { Button, buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import { monthLabel } from "../calendar";
import { formatCents } from "../money";
import { type ColumnMapping, MAPPING_ROLES, type RevenueFormat } from "../revenue-columns";
import { formatBp } from "~/lib/split";
import type { ImportPreview, MappingStep, PreviewLine } from "../types";

// The admin's revenue import on /admin/payments (docs/decisions/0121, 0220, 0221): the file and its
// month, the column-mapping step of a file the app does not recognise, and the preview to commit.

export const FORMAT_LABEL: Record<RevenueFormat, string> = {
  shortbeat: "Shortbeat CSV",
  youtube: "YouTube content-owner revenue report (daily rows, summed to the month)",
  mapped: "CSV read through a column mapping",
};

const ROLE_LABEL: Record<keyof ColumnMapping, string> = {
  period: "Month or date",
  channel: "Channel ID",
  creator: "Creator ID",
  video: "Video ID (optional)",
  amount: "Revenue amount (USD)",
  currency: "Currency (optional)",
};

export function RevenueImportSection({
  preview,
  mappingStep,
  failure,
  busy,
  defaultMonth,
}: {
  preview: ImportPreview | null;
  mappingStep: MappingStep | null;
  failure: ActionFailure | null;
  busy: boolean;
  /** The last full month: the default, and the latest month an import accepts. */
  defaultMonth: string;
}) {
  const month = preview?.month ?? mappingStep?.month ?? failure?.values?.month ?? defaultMonth;
  return (
    <Section id="import-heading" title="Import revenue">
      <p className="mt-1 text-sm text-slate-600">
        Our CSV (month, channel_id or creator_id, video_id, net_revenue, currency), the YouTube content-owner revenue report (daily rows), or any other CSV: you
        choose its columns once and files with the same header are read the same way. Amounts may have any number of decimals, thousands separators or a $ sign.
        A month can be imported once it is over.
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3 sm:grid-cols-[13rem_1fr_auto] sm:items-end">
        <input type="hidden" name="intent" value="preview" />
        <Field label="Month" name="month" type="month" required max={defaultMonth} defaultValue={month} error={failure?.errors.month} />
        <Field label="Revenue file (CSV)" name="file" type="file" accept=".csv,.txt,text/csv" required error={failure?.errors.file} />
        <button type="submit" className={buttonClass.primary} disabled={busy}>
          Preview
        </button>
      </Form>
      {mappingStep ? <MappingPanel step={mappingStep} busy={busy} errors={failure?.intent === "map" ? failure.errors : {}} /> : null}
      {preview ? <PreviewPanel preview={preview} busy={busy} /> : null}
    </Section>
  );
}

const columnLetter = (i: number) =>
  i < 26 ? String.fromCharCode(65 + i) : `${String.fromCharCode(64 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;

function MappingPanel({ step, busy, errors }: { step: MappingStep; busy: boolean; errors: Record<string, string> }) {
  // Sample rows and cells have no identity of their own: their place is their key.
  const headings = step.columns.map((name, i) => ({ id: columnLetter(i), name }));
  const sampleRows = step.sample.map((cells, r) => ({ id: `row-${r + 1}`, cells: cells.map((text, i) => ({ id: columnLetter(i), text })) }));
  const options = [{ value: "-1", label: "— none —" }, ...step.columns.map((c, i) => ({ value: String(i), label: `${columnLetter(i)}: ${c || "(no name)"}` }))];
  return (
    <section aria-labelledby="mapping-heading" className="mt-4 rounded-xl border border-blue-200 bg-white p-4">
      <h3 id="mapping-heading" className="font-semibold text-slate-900">
        {`Choose the columns of ${step.fileName}`}
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        {step.remembered
          ? "These are the columns chosen last time for files with this header. Check them, then preview."
          : "The app does not know this file's header. Say which column holds what; files with the same header are read the same way next time."}
      </p>
      <div className="mt-3 overflow-x-auto">
        <table className="min-w-full text-left text-xs">
          <caption className="sr-only">The file's first rows</caption>
          <thead>
            <tr>
              {headings.map((h) => (
                <th key={h.id} scope="col" className="border-b border-slate-200 px-2 py-1 font-semibold text-slate-700">
                  {h.id}: {h.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sampleRows.map((row) => (
              <tr key={row.id}>
                {row.cells.map((cell) => (
                  <td key={cell.id} className="border-b border-slate-100 px-2 py-1 whitespace-nowrap text-slate-700">
                    {cell.text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <input type="hidden" name="intent" value="map" />
        <input type="hidden" name="month" value={step.month} />
        <input type="hidden" name="uploadId" value={step.uploadId} />
        {MAPPING_ROLES.map((role) => (
          <Select key={role} label={ROLE_LABEL[role]} name={role} options={options} defaultValue={String(step.mapping[role])} error={errors[role]} />
        ))}
        <Field
          label="Every row belongs to (channel ID or creator ID)"
          name="person"
          maxLength={100}
          error={errors.person}
          hint="For a file of one channel (a YouTube Studio export) with no channel or creator column."
        />
        <div className="flex items-end">
          <Button type="submit" variant="primary" disabled={busy}>
            Preview with these columns
          </Button>
        </div>
      </Form>
    </section>
  );
}

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium tabular-nums">{children}</dd>
    </div>
  );
}

export function PreviewPanel({ preview, busy }: { preview: ImportPreview; busy: boolean }) {
  const clean = preview.problems.length === 0 && preview.importId;
  const exactDiffers = preview.fileTotal !== (preview.fileTotalCents / 100).toFixed(2);
  return (
    <section aria-labelledby="preview-heading" className="mt-4 rounded-xl border border-slate-200 bg-white p-4">
      <h3 id="preview-heading" className="font-semibold text-slate-900">
        Preview: {monthLabel(preview.month)} ({preview.fileName})
      </h3>
      <p className="mt-1 text-sm text-slate-600">{FORMAT_LABEL[preview.format]}</p>
      {preview.mapping ? <MappingSummary preview={preview} busy={busy} /> : null}
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <Stat label="Rows">{preview.rowCount === 0 ? "No rows" : formatCount(preview.rowCount)}</Stat>
        <Stat label="Matched">{formatCount(preview.matched)}</Stat>
        <Stat label="Problems">{formatCount(preview.problemCount)}</Stat>
        <Stat label="Month total">
          {formatCents(preview.fileTotalCents)}
          {exactDiffers ? <span className="block text-xs font-normal text-slate-600">{`${preview.fileTotal} in the file, rounded half up`}</span> : null}
        </Stat>
      </dl>
      {preview.skipped.length > 0 ? (
        <ul className="mt-2 text-sm text-slate-600">
          {preview.skipped.map((p) => (
            <li key={`skip-${p.line}`}>{`Line ${p.line}: ${p.reason}`}</li>
          ))}
        </ul>
      ) : null}
      {preview.problems.length > 0 ? (
        <div role="alert" className="mt-3">
          <p className="text-sm font-semibold text-red-800">Nothing was imported. Fix these rows and preview again:</p>
          <ul className="mt-1 max-h-64 list-disc overflow-y-auto pl-5 text-sm text-red-900">
            {preview.problems.map((p) => (
              <li key={`${p.line}-${p.reason}`}>{`Line ${p.line}: ${p.reason}`}</li>
            ))}
          </ul>
          {preview.problemCount > preview.problems.length ? (
            <p className="mt-1 text-sm text-red-900">…and {countOf(preview.problemCount - preview.problems.length, "more row")} with problems.</p>
          ) : null}
        </div>
      ) : null}
      {clean ? (
        <>
          <p className="mt-3 text-sm text-slate-700">
            {countOf(preview.entryCount, "statement line")}; net revenue {formatCents(preview.netCents)}, creators' share {formatBp(preview.shareBp)} ={" "}
            {formatCents(preview.amountCents)}. Summed exactly per person, channel, video and month, and rounded once to the cent (half up); rounding left{" "}
            {preview.remainder} over.
            {preview.replaces ? " Committing replaces the month's current import." : ""}
            {preview.notCredited
              ? ` ${preview.notCredited} matched ${preview.notCredited === 1 ? "person's agreement" : "people's agreements"} had ended before the month: nothing is credited to them.`
              : ""}
          </p>
          <PreviewLines preview={preview} />
          <div className="mt-3 flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value="commit" />
              <input type="hidden" name="importId" value={preview.importId ?? ""} />
              <input type="hidden" name="replaces" value={preview.replaces} />
              <Button type="submit" variant="primary" disabled={busy}>
                Commit import
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="discard" />
              <input type="hidden" name="importId" value={preview.importId ?? ""} />
              <Button type="submit" disabled={busy}>
                Discard
              </Button>
            </Form>
          </div>
        </>
      ) : null}
    </section>
  );
}

/** Where a line's money comes from, as the admin checks it against the file. */
function lineSource(line: PreviewLine): string {
  if (line.kind === "clip") return `Clip ${line.source}`;
  if (line.kind === "referral") return "Referral bonus on the creators they referred";
  if (!line.source) return "Creator ID row (not split by channel)";
  return line.channelTitle ? `Channel ${line.channelTitle} (${line.source})` : `Channel ${line.source}`;
}

/** Who is credited, from where and how much: the largest lines, capped (issue 42 §1). */
function PreviewLines({ preview }: { preview: ImportPreview }) {
  if (preview.lines.length === 0) return null;
  const more = preview.lineCount - preview.lines.length;
  return (
    <div className="mt-3">
      <h4 className="text-sm font-semibold text-slate-900">Who is credited</h4>
      <ul className="mt-1 divide-y divide-slate-100 text-sm">
        {preview.lines.map((line) => (
          <li key={`${line.email}|${line.kind}|${line.source}|${line.credited}`} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
            <span className="min-w-0 break-words">
              <span className="font-medium text-slate-900">{line.name ?? line.email}</span>
              {line.name ? <span className="text-slate-600">{` · ${line.email}`}</span> : null}
              <span className="block text-slate-600 [overflow-wrap:anywhere]">{lineSource(line)}</span>
            </span>
            <span className="tabular-nums text-slate-700">
              {line.credited ? (
                `${formatCents(line.netCents)} net → ${formatCents(line.amountCents)}`
              ) : (
                <span className="text-amber-800">{`${formatCents(line.netCents)} net → not credited: their agreement had ended`}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="mt-1 text-sm text-slate-600">{`…and ${countOf(more, "more line")}, smaller.`}</p> : null}
    </div>
  );
}

function MappingSummary({ preview, busy }: { preview: ImportPreview; busy: boolean }) {
  const m = preview.mapping;
  if (!m) return null;
  const used = MAPPING_ROLES.filter((r) => m.mapping[r] >= 0).map((r) => `${ROLE_LABEL[r].replace(" (optional)", "")}: ${m.columns[m.mapping[r]]}`);
  if (m.person) used.push(`Every row: ${m.person}`);
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <span>
        {m.remembered ? "Columns as remembered for this header — " : "Columns — "}
        {used.join("; ")}
      </span>
      <Form method="post">
        <input type="hidden" name="intent" value="remap" />
        <input type="hidden" name="month" value={preview.month} />
        <input type="hidden" name="uploadId" value={m.uploadId} />
        <Button type="submit" disabled={busy}>
          Change columns
        </Button>
      </Form>
    </div>
  );
}
