// Moved to the UI kit (app/ui/*) and, for the password checklist and the shared sign-up fields,
// to the accounts module; these re-exports keep the old imports compiling until every route
// imports from the new homes. Do not add to this file.
export { SubmitButton } from "~/ui/button";
export { Field } from "~/ui/field";
export { FormError } from "~/ui/form-error";
export { TextArea } from "~/ui/textarea";
export { NewAccountFields, PasswordChecklist } from "~/modules/accounts/components/account-fields";
