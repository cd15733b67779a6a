// Moved to the UI kit (app/ui/*, one primitive per file) and app/lib; these re-exports keep the
// old imports compiling until every route imports from the new homes. Do not add to this file.
export { ApprovalBadge, Badge } from "~/ui/badge";
export { buttonClass } from "~/ui/button";
export { ConfirmDialog } from "~/ui/confirm-dialog";
export { inputClass } from "~/ui/field";
export { Pagination } from "~/ui/pagination";
export { formatDate, formatDateTime } from "~/lib/dates";
export { hrefWith } from "~/lib/href";
export { ADMIN_PATH, AdminGuardPending, AdminGuardScreen } from "./admin-guard";
