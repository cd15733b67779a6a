import { useEffect } from "react";
import { type ActionFailure, isActionFailure } from "~/lib/errors";
import { toast } from "~/ui/toaster";

/**
 * The refusal an action returned, if it did, announced once as an error toast. Every page with a
 * form reads its `actionData` through this instead of repeating the check and the effect.
 */
export function useActionFailure(actionData: unknown): ActionFailure | null {
  const failure = isActionFailure(actionData) ? actionData : null;
  useEffect(() => {
    if (failure) toast.error(failure.toast.title, { description: failure.toast.description });
  }, [failure]);
  return failure;
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
