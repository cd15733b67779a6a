import { useState } from "react";
import { Form } from "react-router";
import type { ActionFailure, FieldErrors } from "~/lib/errors";
import { buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { Section } from "~/ui/section";
import { validateBeforeSubmit } from "~/ui/validate-before-submit";
import { CLIP_PLATFORM_LABELS } from "../messages";
import type { ClipRow } from "../types";
import { failureFor } from "./page-parts";

// The admin's views of TikTok and Instagram Reels clips (YouTube's come from the provider). The
// browser checks each with the action's own schema first: "1,00" is refused, never read as 100
// (docs/decisions/0203).

const loadSchema = () => import("../schema").then((m) => [m.clippingActionSchema]);

function ViewsForm({ clip, failure }: { clip: ClipRow; failure: ActionFailure | null }) {
  const [checked, setChecked] = useState<FieldErrors>({});
  return (
    <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={(e) => validateBeforeSubmit(e, loadSchema, setChecked)}>
      <input type="hidden" name="intent" value="set-views" />
      <input type="hidden" name="clipId" value={clip.id} />
      <span className="min-w-0 flex-1 break-all">
        {CLIP_PLATFORM_LABELS[clip.platform]} · {clip.url} · {clip.clipperName} for {clip.creatorName}
      </span>
      <Field
        label="Views"
        name="views"
        inputMode="numeric"
        defaultValue={String(clip.views)}
        error={checked.views ?? failureFor(failure, "set-views", "clipId", clip.id)?.errors.views}
      />
      <button type="submit" className={buttonClass.secondary}>
        Save views
      </button>
    </Form>
  );
}

export function ViewsToEnter({ clips, failure }: { clips: ClipRow[]; failure: ActionFailure | null }) {
  return (
    <Section id="views" title="Views to enter (TikTok and Instagram Reels)">
      <ul className="mt-3 space-y-2">
        {clips.map((c) => (
          <li key={c.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
            <ViewsForm clip={c} failure={failure} />
          </li>
        ))}
      </ul>
    </Section>
  );
}
