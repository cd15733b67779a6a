import { data } from "react-router";
import { handleStandInAuthorize } from "~/dev/dev-social-login.server";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/social";

// The stand-in Instagram and TikTok authorize pages (decisions 0299, 0300). DEV_TOOLS only; their
// APIs are answered in-process by outboundFetch and never reach a route.
export async function loader({ request }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return handleStandInAuthorize(request);
}
