import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { formatCount } from "~/lib/format";
import { Button } from "~/ui/button";
import { Section } from "~/ui/section";
import { monthLabel } from "../calendar";
import { REPORT_MESSAGES as R, REPORT_PART_BYTES } from "../report-messages";
import { PreviewPanel } from "./revenue-import";

// A revenue report of any size on /admin/payments (issue 45 §1, docs/decisions/0334): the file goes
// to /admin/payments/report in 8 MiB parts (each retried after a dropped connection; choosing the
// same file and month again resumes), then the Workflow reads it while this polls the page's loader
// every 2 s for rows read, matched and problems; then the preview to commit, as for a small file.

export type ReportSummary = {
  id: string;
  month: string;
  fileName: string;
  sizeBytes: number;
  status: "uploading" | "reading" | "staged" | "problems" | "duplicate" | "failed";
  readBytes: number;
  rowsRead: number;
  rowsMatched: number;
  problemCount: number;
  error: string | null;
  duplicateOf: { month: string; fileName: string; createdAt: string } | null;
  preview: Parameters<typeof PreviewPanel>[0]["preview"] | null;
};

type Answer = { ok: true; reportId: string; partCount: number; uploaded: number[] } | { ok: false; error: string };

async function send(form: FormData): Promise<Answer> {
  let last = "The connection dropped. Choose the file again to resume.";
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const res = await fetch("/admin/payments/report", { method: "POST", body: form });
      const body = (await res.json().catch(() => null)) as (Answer & { error?: string }) | null;
      if (res.ok && body?.ok) return body;
      if (res.status < 500) return { ok: false, error: body?.error ?? "The upload failed." };
      last = body?.error ?? "The upload failed.";
    } catch {
      // A dropped connection: tried again below.
    }
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
  return { ok: false, error: last };
}

export function RevenueReportSection({ report, defaultMonth, busy }: { report: ReportSummary | null; defaultMonth: string; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [month, setMonth] = useState(defaultMonth);
  const [sent, setSent] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const reading = report?.status === "reading";

  // While the Workflow reads the report: the page's data again every 2 s.
  useEffect(() => {
    if (!reading) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [reading, revalidator]);

  async function upload() {
    const file = input.current?.files?.[0];
    if (!file) return setError(R.fileRequired);
    setError(null);
    const partCount = Math.max(1, Math.ceil(file.size / REPORT_PART_BYTES));
    const part = (n: number) => file.slice((n - 1) * REPORT_PART_BYTES, Math.min(file.size, n * REPORT_PART_BYTES));
    setSent({ done: 0, total: partCount });
    const start = new FormData();
    start.set("intent", "start");
    start.set("month", month);
    start.set("name", file.name);
    start.set("size", String(file.size));
    start.set("chunk", part(1), file.name);
    const first = await send(start);
    if (!first.ok) {
      setSent(null);
      return setError(first.error);
    }
    const done = new Set(first.uploaded);
    setSent({ done: done.size, total: partCount });
    for (let n = 1; n <= partCount; n++) {
      if (done.has(n)) continue;
      const form = new FormData();
      form.set("intent", "part");
      form.set("reportId", first.reportId);
      form.set("partNumber", String(n));
      form.set("chunk", part(n), file.name);
      const answer = await send(form);
      if (!answer.ok) {
        setSent(null);
        return setError(answer.error);
      }
      done.add(n);
      setSent({ done: done.size, total: partCount });
    }
    const complete = new FormData();
    complete.set("intent", "complete");
    complete.set("reportId", first.reportId);
    const finished = await send(complete);
    setSent(null);
    if (!finished.ok) return setError(finished.error);
    if (input.current) input.current.value = "";
    revalidator.revalidate();
  }

  const uploading = sent !== null;
  return (
    <Section id="report-heading" title="Import a large revenue report">
      <p className="mt-1 text-sm text-slate-600">
        A report of any size (a network's month of the YouTube content-owner report is about 1 GB) goes straight to storage in parts and is read in the
        background. The same checks as above apply; a report with other columns is read with the mapping chosen once for its header above.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-[13rem_1fr_auto] sm:items-end">
        <label className="grid gap-1 text-sm">
          <span className="font-medium text-slate-800">Month of the report</span>
          <input
            type="month"
            name="reportMonth"
            className="rounded-md border border-slate-300 px-3 py-2"
            max={defaultMonth}
            value={month}
            onChange={(e) => setMonth(e.target.value)}
          />
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium text-slate-800">Revenue report (CSV)</span>
          <input ref={input} type="file" name="report" accept=".csv,.txt,.tsv,text/csv" className="text-sm" />
        </label>
        <Button type="button" variant="primary" disabled={uploading || busy || reading} onClick={() => void upload()}>
          Upload and read
        </Button>
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {sent ? (
        <div className="mt-3">
          <p className="text-sm text-slate-700">{`Uploading: part ${sent.done} of ${sent.total}`}</p>
          <progress className="w-full" max={sent.total} value={sent.done} aria-label="Upload progress" />
        </div>
      ) : null}
      {report ? <ReportStatus report={report} busy={busy} /> : null}
    </Section>
  );
}

function ReportStatus({ report, busy }: { report: ReportSummary; busy: boolean }) {
  const counts = `${formatCount(report.rowsRead)} rows read, ${formatCount(report.rowsMatched)} matched, ${formatCount(report.problemCount)} ${report.problemCount === 1 ? "problem" : "problems"}`;
  return (
    <div className="mt-4" aria-live="polite">
      <p className="text-sm font-semibold text-slate-900">{`${report.fileName} (${monthLabel(report.month)})`}</p>
      {report.status === "reading" ? (
        <>
          <p className="text-sm text-slate-700">{`Reading: ${counts}`}</p>
          <progress className="w-full" max={report.sizeBytes} value={report.readBytes} aria-label="Reading progress" />
        </>
      ) : (
        <p className="text-sm text-slate-700">{counts}</p>
      )}
      {report.status === "failed" ? (
        <p role="alert" className="text-sm text-red-800">
          {report.error}
        </p>
      ) : null}
      {report.status === "duplicate" ? (
        <p role="alert" className="text-sm text-amber-800">
          {R.duplicate(
            report.duplicateOf
              ? `${report.duplicateOf.fileName} for ${monthLabel(report.duplicateOf.month)}, ${report.duplicateOf.createdAt.slice(0, 10)}`
              : "earlier",
          )}
        </p>
      ) : null}
      {report.status === "problems" ? (
        <p className="text-sm">
          <a className="text-indigo-700 underline" href={`/admin/payments/report/${report.id}/problems.csv`}>
            Download the problems (CSV)
          </a>
        </p>
      ) : null}
      {report.preview && (report.status === "staged" || report.status === "problems") ? <PreviewPanel preview={report.preview} busy={busy} /> : null}
    </div>
  );
}
