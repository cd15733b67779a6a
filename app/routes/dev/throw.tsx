import { data } from "react-router";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/throw";

// Development-only route that fails while rendering, to show (and test) the error screen.
export function loader() {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return { ok: true };
}

export default function Throw({ loaderData }: Route.ComponentProps) {
  if (loaderData.ok) throw new Error("Test render failure from /dev/throw");
  return null;
}
