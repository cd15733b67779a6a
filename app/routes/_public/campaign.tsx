import { data } from "react-router";
import { NotFoundScreen } from "~/components/error-screen";

export { NotFoundScreen as ErrorBoundary } from "~/components/error-screen";

// Public campaign pages: only live campaigns resolve. Campaigns are not built yet, so no slug
// resolves and every one answers the not-found page with 404.
export function loader() {
  throw data("Not Found", { status: 404 });
}

export default function Campaign() {
  return <NotFoundScreen />;
}
