import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button, type ButtonVariant } from "./button";

/**
 * A form of one field and its submit button, posted with its `intent`: stacked on phones, side by
 * side from sm up, the button lined up with the input under the field's label. Settings' phone
 * number and code, /clipping's invitation. `className` places it (margins, width, a border).
 */
export function InlineFieldForm({
  intent,
  className,
  noValidate,
  submit,
  variant = "primary",
  busy,
  children,
}: {
  intent: string;
  className: string;
  noValidate?: boolean;
  /** The button's words. */
  submit: ReactNode;
  variant?: ButtonVariant;
  busy: boolean;
  /** The field. */
  children: ReactNode;
}) {
  return (
    <Form method="post" className={`${className} flex flex-col gap-3 sm:flex-row sm:items-start`} noValidate={noValidate}>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <Button type="submit" variant={variant} disabled={busy} className="sm:mt-6">
        {submit}
      </Button>
    </Form>
  );
}
