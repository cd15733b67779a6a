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
