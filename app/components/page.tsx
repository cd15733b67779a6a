// Moved to the UI kit (app/ui/*); these re-exports keep the old imports compiling until every
// route imports from the new homes. Do not add to this file.
export { Card } from "~/ui/card";
export { EmptyState } from "~/ui/empty-state";
export { PageHeader } from "~/ui/page-header";
