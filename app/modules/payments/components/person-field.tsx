import { Field } from "~/ui/field";

/**
 * Whom an admin payment action is for: an e-mail or a creator ID (the `person` of payments/schema.ts).
 * /admin/payments has several such forms; a failed submission's value and error show only in the
 * form whose `intent` sent it.
 */
export function PersonField({ intent, values, errors }: { intent: string; values: Record<string, string>; errors: Record<string, string> }) {
  const mine = values.intent === intent;
  return (
    <Field
      label="E-mail or creator ID"
      name="person"
      required
      maxLength={254}
      defaultValue={mine ? values.person : undefined}
      error={mine ? errors.person : undefined}
    />
  );
}
