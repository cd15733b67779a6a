import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  // Public
  index("routes/_public/landing.tsx"),
  route("terms-of-service", "routes/_public/terms-of-service.tsx"),
  route("privacy-policy", "routes/_public/privacy-policy.tsx"),
  route("music-partner-terms", "routes/_public/music-partner-terms.tsx"),
  route("sitemap.xml", "routes/_public/sitemap.ts"),

  // Development tools (404 unless DEV_TOOLS=1)
  route("dev/throw", "routes/dev/throw.tsx"),

  // Anything else: the not-found page with HTTP 404.
  route("*", "routes/_public/not-found.tsx"),
] satisfies RouteConfig;
