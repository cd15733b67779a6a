// The Channels module's public surface: routes, the Worker's scheduled handler and other modules
// import from here, never from the files behind it. See docs/how-a-request-flows.md.
//   page.server.ts         what /channels shows
//   links.server.ts        linking a YouTube channel, refresh, disconnect (youtube_channels, tokens)
//   submissions.server.ts  manual submissions and the admin verification queue
//   analytics.server.ts    analytics and CSV from channel_snapshots
//   channels-cron.server.ts the daily refresh job
//   counts.server.ts, roster.server.ts  channel figures other modules put in their own batches
//   handles.server.ts      the creator's declared TikTok / Instagram handles (decision 0265)
//   licensing.server.ts    the channels a music licence covers (linked + verified)
//   social-accounts.server.ts  linked TikTok / Instagram accounts, ownership and views with their tokens (0299, 0300)
export * from "./roster.server";
export * from "./counts.server";
export * from "./analytics.server";
export * from "./channels-cron.server";
export * from "./links.server";
export * from "./page.server";
export * from "./submissions.server";
export * from "./licensing.server";
export * from "./handles.server";
export * from "./thumbnail-sources.server";
export {
  clearSocialLinkCookie,
  completeSocialLink,
  listSocialAccounts,
  socialVideoOwnership,
  startSocialLink,
  unlinkSocialAccount,
  type LinkedSocialAccount,
} from "./social-accounts.server";
export type { ProviderChannel, ProviderVideo } from "./provider.server";
// A public YouTube video (channel, views): campaigns and clipping read it through here, with the
// credential youtubeCredentialFor chooses (decision 0303); the daily jobs batch through youtubeViewsMany.
export { fetchYouTubeVideo, ProviderUnauthorized, YouTubeQuotaExceeded, type YouTubeCredential } from "./provider.server";
export { youtubeCredentialFor } from "./youtube-access.server";
export { youtubeViewsMany, type YouTubeViewsReading, type YouTubeViewsTarget } from "./youtube-views.server";
export { youtubeApiStatus, youtubePausedUntil } from "./youtube-quota.server";
// The views provider per platform (decision 0266): the daily jobs of campaigns and clipping.
export { VIEWS_PROVIDERS, type ViewsPlatform, type ViewsReading } from "./views-provider.server";
export * from "./privacy.server";
