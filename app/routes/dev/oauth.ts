import { data } from "react-router";
import { handleDevOAuthApi } from "~/dev/dev-oauth.server";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/oauth";

// The stand-in provider's API (token, userinfo, YouTube channels). DEV_TOOLS only.
export async function loader({ request }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return handleDevOAuthApi(request);
}

export async function action({ request }: Route.ActionArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return handleDevOAuthApi(request);
}
