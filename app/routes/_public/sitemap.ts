import { sitemapXml } from "~/lib/public-pages";
import { env } from "~/platform/env.server";
import type { Route } from "./+types/sitemap";

export function loader({ request }: Route.LoaderArgs) {
  // In production the canonical origin; locally the one the request came to.
  const origin = env.DEV_TOOLS === "1" ? new URL(request.url).origin : env.APP_ORIGIN;
  return new Response(sitemapXml(origin), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
