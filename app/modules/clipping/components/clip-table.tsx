import { Badge, type Tone } from "~/ui/badge";
import { formatCount } from "~/lib/format";
import type { ReactNode } from "react";
import { Table, TableHead, TableRegion, Td } from "~/ui/table";
import { CLIP_PLATFORM_LABELS, CLIP_STATUS_LABELS } from "../messages";
import type { ClipRow } from "../types";
import { cell, head, IntentButton } from "./page-parts";

// Clips: the creator's to review (approve, reject, ask for removal) and the clipper's own.

const STATUS_TONE: Record<ClipRow["status"], Tone> = {
  pending: "amber",
  approved: "green",
  rejected: "red",
  removal_requested: "violet",
  removed: "slate",
};

/**
 * The clips of one side. Each clip's earnings are the payments module's (it sits above clipping):
 * the page hands in how to show them, `earning(clip, approved)`, and the note under the table.
 */
export function ClipTable({
  clips,
  side,
  earning,
  earningsNote,
}: {
  clips: ClipRow[];
  side: "creator" | "clipper";
  earning: (clip: ClipRow, approved: boolean) => ReactNode;
  earningsNote: ReactNode;
}) {
  if (clips.length === 0) {
    return <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">No clips yet.</p>;
  }
  return (
    <TableRegion label={side === "creator" ? "Clips of your videos" : "Your clips"} className="mt-3">
      <Table caption={side === "creator" ? "Clips of your videos" : "Your clips"} stacked>
        <TableHead
          className="bg-slate-50"
          cellClassName={head}
          columns={[
            "Clip",
            { key: "who", label: side === "creator" ? "Clipper" : "Creator" },
            "Source",
            "Status",
            "Views",
            { key: "earnings", label: "Your earnings" },
            { key: "actions", label: <span className="sr-only">Actions</span> },
          ]}
        />
        <tbody className="divide-y divide-slate-100">
          {clips.map((c) => (
            <tr key={c.id}>
              <Td className={cell} label="Clip">
                <span className="block min-w-0">
                  <span className="block text-xs text-slate-600">{CLIP_PLATFORM_LABELS[c.platform]}</span>
                  {/* One line, cut with an ellipsis (the full URL is the link and its title): at 375 px a
                      wrapped URL made the row a column of fragments. */}
                  <a href={c.url} target="_blank" rel="noreferrer noopener" title={c.url} className="block max-w-48 truncate text-blue-800 underline">
                    {c.url.replace(/^https?:\/\/(www\.)?/, "")}
                  </a>
                </span>
              </Td>
              <Td className={cell} label={side === "creator" ? "Clipper" : "Creator"}>
                {side === "creator" ? c.clipperName : c.creatorName}
              </Td>
              <Td className={`${cell} break-words`} label="Source">
                {c.sourceName}
              </Td>
              <Td className={cell} label="Status">
                <span className="block">
                  <Badge tone={STATUS_TONE[c.status]}>{CLIP_STATUS_LABELS[c.status]}</Badge>
                  {c.videoNotFound ? (
                    <span className="mt-1 block max-w-48 text-xs text-red-700">
                      <Badge tone="red">Not found on YouTube</Badge>{" "}
                      {side === "creator" ? "Check the link before approving it." : "Check the link: the creator cannot approve it until YouTube knows it."}
                    </span>
                  ) : null}
                </span>
              </Td>
              <Td className={`${cell} tabular-nums`} label="Views">
                {formatCount(c.views)}
              </Td>
              <Td className={cell} label="Your earnings">
                {earning(c, c.status !== "pending" && c.status !== "rejected")}
              </Td>
              <Td className={cell}>
                <ClipActions clip={c} side={side} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <div className="border-t border-slate-100 px-3 pb-3">{earningsNote}</div>
    </TableRegion>
  );
}

function ClipActions({ clip, side }: { clip: ClipRow; side: "creator" | "clipper" }) {
  if (side === "creator" && clip.status === "pending") {
    return (
      <div className="flex flex-wrap gap-2">
        <IntentButton intent="review-clip" fields={{ clipId: clip.id, decision: "approve" }} label="Approve" variant="primary" />
        <IntentButton intent="review-clip" fields={{ clipId: clip.id, decision: "reject" }} label="Reject" />
      </div>
    );
  }
  if (side === "creator" && clip.status === "approved") {
    return <IntentButton intent="request-removal" fields={{ clipId: clip.id }} label="Ask for removal" variant="dangerOutline" />;
  }
  if (side === "clipper" && clip.status === "removal_requested") {
    return <IntentButton intent="mark-removed" fields={{ clipId: clip.id }} label="Mark removed" />;
  }
  return null;
}
