// The Campaigns module's public surface (issue 15): routes, the sitemap and the Worker's scheduled
// handler import from here, never from the files behind it. See docs/how-a-request-flows.md.
//   admin-list.server.ts   the admin console's list and the selected campaign in detail
//   edit.server.ts         the admin creates and edits a campaign
//   lifecycle.server.ts    launch, end early (and telling participants it ended), settle, funds received
//   review.server.ts       the admin reviews a submission: approve, update views, reject
//   budget.server.ts       the budget spent in SQL: capped amounts, re-summed spent, raising capped submissions
//   participate.server.ts  the creator's /campaigns: live campaigns, join, submit, own submissions
//   public.server.ts       /campaigns/{slug}, the sitemap's live campaigns, the daily end notice
//   store.server.ts        shared reads, the state in SQL, telling participants
//   provider.server.ts     which channel a YouTube video is on, who posted a TikTok / Instagram one (oEmbed)
//   views.server.ts        the daily views job through the channels module's views provider (decision 0266)
export * from "./admin-list.server";
export { cappedAmount, resumSpent } from "./budget.server";
export * from "./edit.server";
export * from "./lifecycle.server";
export * from "./participate.server";
export * from "./public.server";
export * from "./privacy.server";
export * from "./review.server";
export { refreshCampaignViews } from "./views.server";
