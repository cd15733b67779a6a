/** The public pages listed in /sitemap.xml, with how often they change. */
export const PUBLIC_PAGES: { path: string; changefreq: "weekly" | "monthly" | "yearly"; priority: number }[] = [
  { path: "/", changefreq: "weekly", priority: 1.0 },
  { path: "/auth", changefreq: "monthly", priority: 0.8 },
  { path: "/music-signup", changefreq: "monthly", priority: 0.6 },
  { path: "/agency/signup", changefreq: "monthly", priority: 0.6 },
  { path: "/terms-of-service", changefreq: "yearly", priority: 0.4 },
  { path: "/privacy-policy", changefreq: "yearly", priority: 0.4 },
  { path: "/music-partner-terms", changefreq: "yearly", priority: 0.4 },
];

export function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

export function sitemapXml(origin: string, pages = PUBLIC_PAGES): string {
  const urls = pages
    .map(
      (p) =>
        `  <url>\n    <loc>${escapeXml(new URL(p.path, origin).toString())}</loc>\n    <changefreq>${p.changefreq}</changefreq>\n    <priority>${p.priority.toFixed(1)}</priority>\n  </url>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
