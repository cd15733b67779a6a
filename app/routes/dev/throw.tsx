import { data } from "react-router";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/throw";

// Development-only route that fails, to show (and test) the error screen and the unexpected-error
// log: while rendering by default, in its loader with ?in=loader (so a .data request fails too).
export function loader({ request }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  if (new URL(request.url).searchParams.get("in") === "loader") throw new Error("Test loader failure from /dev/throw");
  return { ok: true };
}

export default function Throw({ loaderData }: Route.ComponentProps) {
  if (loaderData.ok) throw new Error("Test render failure from /dev/throw");
  return null;
}
