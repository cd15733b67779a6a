import { useEffect } from "react";
import { type ActionFailure, isActionFailure } from "~/lib/errors";
import { toast } from "~/ui/toaster";

/**
 * The refusal an action returned, if it did, announced once as an error toast. Every page with a
 * form reads its `actionData` through this instead of repeating the check and the effect.
 * `inlineFields`: the fields whose error the form shows beside the field itself; a refusal about one
 * of them is said there only, not again in a toast (issue 42 §4: one message, where it applies).
 */
export function useActionFailure(actionData: unknown, opts: { inlineFields?: readonly string[] } = {}): ActionFailure | null {
  const failure = isActionFailure(actionData) ? actionData : null;
  const inline = shownInline(failure, opts.inlineFields ?? []);
  useEffect(() => {
    if (failure && !inline) toast.error(failure.toast.title, { description: failure.toast.description });
  }, [failure, inline]);
  return failure;
}

/** Whether the refusal is about one of `fields` (so the form shows it beside that field). */
export function shownInline(failure: ActionFailure | null, fields: readonly string[]): boolean {
  return failure !== null && fields.some((name) => Boolean(failure.errors[name]));
}

/**
 * A field of a form the action refused: its name, the value that was sent (else `fallback`) and its
 * error, to spread on a Field or Select. `failure` is the refusal of this form only (or null).
 */
export function refilled(failure: ActionFailure | null, name: string, fallback = "") {
  return { name, defaultValue: failure?.values?.[name] ?? fallback, error: failure?.errors[name] };
}

/** The refusal shown on the page itself (it stays after the toast is gone), announced as an alert. */
export function FailureAlert({ failure, className = "mb-4" }: { failure: ActionFailure | null; className?: string }) {
  if (!failure) return null;
  return (
    <div role="alert" className={`${className} rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900`}>
      <p className="font-semibold">{failure.toast.title}</p>
      <p className="mt-1">{failure.toast.description}</p>
    </div>
  );
}
