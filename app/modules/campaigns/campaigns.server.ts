// The Campaigns module's public surface (issue 15): routes, the sitemap and the Worker's scheduled
// handler import from here, never from the files behind it. See docs/how-a-request-flows.md.
//   admin.server.ts        the admin console: create, edit, launch, end, review, settle, funds received
//   participate.server.ts  the creator's /campaigns: live campaigns, join, submit, own submissions
//   public.server.ts       /campaigns/{slug}, the sitemap's live campaigns, the daily end notice
//   store.server.ts        shared reads, the state in SQL, telling participants
//   provider.server.ts     which channel a YouTube video is on, who posted a TikTok / Instagram one (oEmbed)
//   views.server.ts        the daily views job through the channels module's views provider (decision 0266)
export * from "./admin.server";
export * from "./participate.server";
export * from "./public.server";
export * from "./privacy.server";
export { refreshCampaignViews } from "./views.server";
