import { data } from "react-router";
import { NotFoundScreen } from "~/components/error-screen";

export const meta = () => [{ title: "Page not found | Shortbeat" }];

// Every unknown path, document or .data request, answers 404.
export function loader() {
  throw data("Not Found", { status: 404 });
}

export function action() {
  throw data("Not Found", { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}

export function ErrorBoundary() {
  return <NotFoundScreen />;
}
