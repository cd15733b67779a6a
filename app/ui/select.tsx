import type { ReactNode, SelectHTMLAttributes } from "react";
import { FieldFrame, controlClass, useDescribed } from "./field";

export type SelectOption = { value: string; label: string };

/**
 * A labelled native select (the platform's own keyboard and screen-reader behaviour, works without
 * JavaScript), with its error and hint linked like every field.
 */
export function Select({
  label,
  name,
  options,
  error,
  hint,
  className = "",
  ...rest
}: {
  label: ReactNode;
  name: string;
  options: readonly SelectOption[];
  error?: string;
  hint?: ReactNode;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const d = useDescribed(error, hint);
  return (
    <FieldFrame d={d} label={label} className={className}>
      <select
        id={d.id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={d.describedBy}
        className={`${controlClass(error)} bg-white`}
        {...rest}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
