import { Form, Link } from "react-router";
import { formatCount } from "~/lib/format";
import { formatBp } from "~/lib/split";
import { buttonClass } from "~/ui/button";
import { Section } from "~/ui/section";
import { Table, TableHead, TableRegion } from "~/ui/table";
import type { LinkRow } from "../types";
import { cell, head, LinkStatus, SplitHistory } from "./page-parts";

// The creator's approved clippers: their split requests to answer, and each one's split, clips,
// views and status, with Revoke access.

export function ClippersSection({ clippers }: { clippers: LinkRow[] }) {
  const pendingSplits = clippers.flatMap((c) => c.splits.filter((s) => s.status === "pending").map((s) => ({ link: c, split: s })));
  return (
    <Section id="clippers" title="Your clippers">
      {pendingSplits.length > 0 ? (
        <ul className="mt-3 space-y-2">
          {pendingSplits.map(({ link, split }) => (
            <li
              key={split.id}
              className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
            >
              <span>
                <strong>{link.personName}</strong> asks for {formatBp(split.shareBps)} of clip revenue (now {formatBp(split.fromBps)}). An approved split
                applies to revenue from the moment you confirm.
              </span>
              <span className="flex gap-2">
                {(["approve", "decline"] as const).map((decision) => (
                  <Form method="post" key={decision}>
                    <input type="hidden" name="intent" value="answer-split" />
                    <input type="hidden" name="requestId" value={split.id} />
                    <input type="hidden" name="decision" value={decision} />
                    <button type="submit" className={decision === "approve" ? buttonClass.primary : buttonClass.secondary}>
                      {decision === "approve" ? `Approve ${formatBp(split.shareBps)}` : "Decline"}
                    </button>
                  </Form>
                ))}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {clippers.length === 0 ? (
        <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
          No clippers yet. Invite people who will cut clips from your videos: you approve each one before they can use your folder.
        </p>
      ) : (
        <TableRegion label="Clippers linked to you" className="mt-3">
          <Table caption="Clippers linked to you">
            <TableHead
              className="bg-slate-50"
              cellClassName={head}
              columns={["Clipper", "Split", "Clips", "Views", "Status", { key: "actions", label: <span className="sr-only">Actions</span> }]}
            />
            <tbody className="divide-y divide-slate-100">
              {clippers.map((c) => (
                <tr key={c.id}>
                  <td className={cell}>
                    <span className="font-medium text-slate-900">{c.personName}</span>
                    <SplitHistory splits={c.splits} />
                  </td>
                  <td className={cell}>{formatBp(c.shareBps)} clipper</td>
                  <td className={`${cell} tabular-nums`}>{c.clipCount}</td>
                  <td className={`${cell} tabular-nums`}>{formatCount(c.views)}</td>
                  <td className={cell}>
                    <LinkStatus link={c} />
                  </td>
                  <td className={cell}>
                    {c.status === "active" ? (
                      <Link to={`?revoke=${c.id}`} preventScrollReset className={buttonClass.dangerOutline}>
                        Revoke access<span className="sr-only"> of {c.personName}</span>
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableRegion>
      )}
    </Section>
  );
}
