import { PUBLIC_PAGES, sitemapXml } from "~/lib/public-pages";
import { liveCampaignPaths } from "~/modules/campaigns/campaigns.server";
import { env } from "~/platform/env.server";
import type { Route } from "./+types/sitemap";

export async function loader({ request }: Route.LoaderArgs) {
  // In production the canonical origin; locally the one the request came to.
  const origin = env.DEV_TOOLS === "1" ? new URL(request.url).origin : env.APP_ORIGIN;
  // Live campaigns' public pages (issue 15) follow the fixed pages.
  const campaigns = (await liveCampaignPaths()).map((path) => ({ path, changefreq: "weekly" as const, priority: 0.7 }));
  return new Response(sitemapXml(origin, [...PUBLIC_PAGES, ...campaigns]), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
