import { formatDateTime } from "~/lib/dates";
import type { TrackEvent } from "../library";
import { CHANGE_LABELS, TRACK_EVENT_LABELS } from "../messages";

// A submission's rounds, oldest first, as artist portals and app stores show them: "Submitted on …",
// "Rejected on …: the reviewer's note", "Resubmitted on … · changed: title, audio file", "Approved
// on …". The partner sees it on /music/submissions and the resubmit page, the admin on the review
// card of a resubmitted track (issue 30; docs/decisions/0260).

const DOT: Record<TrackEvent["kind"], string> = {
  rejected: "bg-red-600",
  resubmitted: "bg-amber-500",
  approved: "bg-green-600",
  withdrawn: "bg-slate-500",
};

function changesLine(changes: string[]): string {
  if (changes.length === 0) return "no changes to the details or files";
  return `changed: ${changes.map((c) => CHANGE_LABELS[c] ?? c).join(", ")}`;
}

export function SubmissionHistory({ title, submittedAt, events }: { title: string; submittedAt: string; events: TrackEvent[] }) {
  return (
    <ol className="space-y-2 border-l border-slate-200 pl-4 text-sm" aria-label={`History of ${title}`} data-testid="submission-history">
      <li className="relative">
        <span className="absolute top-1.5 -left-[21px] h-2.5 w-2.5 rounded-full bg-slate-400" aria-hidden="true" />
        <span className="font-medium text-slate-900">Submitted</span> <span className="text-slate-600">on {formatDateTime(submittedAt)}</span>
      </li>
      {events.map((e) => (
        <li key={e.id} className="relative">
          <span className={`absolute top-1.5 -left-[21px] h-2.5 w-2.5 rounded-full ${DOT[e.kind]}`} aria-hidden="true" />
          <span className="font-medium text-slate-900">{TRACK_EVENT_LABELS[e.kind]}</span>{" "}
          <span className="text-slate-600">on {formatDateTime(e.createdAt)}</span>
          {e.kind === "resubmitted" ? <span className="text-slate-700"> · {changesLine(e.changes)}</span> : null}
          {e.note ? (
            <p className="mt-0.5 break-words text-slate-800">
              <span className="sr-only">{e.kind === "withdrawn" ? "Reason: " : "Reviewer's note: "}</span>“{e.note}”
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
