import { Form, Link } from "react-router";
import { buttonClass } from "./button";

/**
 * The dialog's answer for a one-click destructive action: the hidden fields, Cancel (back to
 * `cancelTo`, like Escape) and the danger button that posts to `action`.
 */
export function ConfirmForm({
  action,
  cancelTo = action,
  fields,
  label,
}: {
  action: string;
  cancelTo?: string;
  fields: Record<string, string>;
  label: string;
}) {
  return (
    <Form method="post" action={action} className="mt-4 flex flex-wrap justify-end gap-2">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Link to={cancelTo} className={buttonClass.secondary} preventScrollReset replace>
        Cancel
      </Link>
      <button type="submit" className={buttonClass.danger}>
        {label}
      </button>
    </Form>
  );
}
