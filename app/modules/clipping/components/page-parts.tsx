import { Form, useNavigation } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import { formatBp } from "~/lib/split";
import { SPLIT_STATUS_LABELS } from "../messages";
import type { LinkRow, SplitRow } from "../types";

// Small pieces every part of /clipping uses.

export const cell = "px-3 py-2 align-top";
export const head = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";

/** The action's refusal when it came from this intent (and, with `key`/`id`, from this row's form). */
export function failureFor(failure: ActionFailure | null, intent: string, key?: string, id?: string) {
  if (!failure || failure.intent !== intent) return null;
  if (key && id && failure.values?.[key] !== id) return null;
  return failure;
}

/** A one-button form posting `intent` with hidden `fields`; disabled while that intent is being sent. */
export function IntentButton({
  intent,
  fields,
  label,
  variant = "secondary",
}: {
  intent: string;
  fields: Record<string, string>;
  label: React.ReactNode;
  variant?: keyof typeof buttonClass;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className={`${buttonClass[variant]} whitespace-nowrap`} disabled={busy}>
        {label}
      </button>
    </Form>
  );
}

export function LinkStatus({ link }: { link: LinkRow }) {
  return link.status === "active" ? (
    <Badge tone="green">Active</Badge>
  ) : (
    <span className="text-sm text-slate-600">
      <Badge tone="red">Revoked</Badge> <LocalTime iso={link.revokedAt} />
    </span>
  );
}

export function SplitHistory({ splits }: { splits: SplitRow[] }) {
  if (splits.length === 0) return <p className="text-xs text-slate-600">Default split</p>;
  return (
    <details className="mt-1 text-xs text-slate-600">
      <summary className="cursor-pointer">Split history</summary>
      <ul className="mt-1 space-y-1">
        {splits.map((s) => (
          <li key={s.id}>
            {formatBp(s.fromBps)} → {formatBp(s.shareBps)}: {SPLIT_STATUS_LABELS[s.status]}{" "}
            {s.decidedAt ? (
              <>
                (<LocalTime iso={s.decidedAt} withTime />)
              </>
            ) : (
              <>
                (asked <LocalTime iso={s.createdAt} withTime />)
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
