import type { TextareaHTMLAttributes } from "react";
import { FieldFrame, controlClass, useDescribed } from "./field";

/** A labelled multi-line input with its error and hint linked. */
export function TextArea({
  label,
  name,
  error,
  hint,
  ...rest
}: { label: string; name: string; error?: string; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const d = useDescribed(error, hint);
  return (
    <FieldFrame d={d} label={label}>
      <textarea id={d.id} name={name} aria-invalid={error ? true : undefined} aria-describedby={d.describedBy} className={controlClass(error)} {...rest} />
    </FieldFrame>
  );
}
