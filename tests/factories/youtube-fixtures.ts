import type { youtube_v3 } from "@googleapis/youtube";
import type { GoogleErrorBody } from "~/modules/channels/youtube-api";

// The YouTube Data API answers the stand-in gives (app/dev/dev-oauth.server.ts), typed against the
// published client's schema (@googleapis/youtube, youtube_v3) with `satisfies`: a field of the wrong
// type or name fails the type check. The unit contract test parses them with our parser; the worker
// test (tests/worker/channels/youtube-api.test.ts) checks the stand-in answers this shape. Decision 0303.

export const VIDEO_LIST = {
  kind: "youtube#videoListResponse",
  pageInfo: { totalResults: 2, resultsPerPage: 2 },
  items: [
    {
      kind: "youtube#video",
      id: "caseyShort1",
      snippet: { channelId: "UCstandinCasey0000000002", title: "Stand-in video caseyShort1", thumbnails: { medium: { url: "/x.png" } } },
      statistics: { viewCount: "12345" },
    },
    // Listed without statistics: its views cannot be read.
    {
      kind: "youtube#video",
      id: "hiddenViews",
      snippet: { channelId: "UCstandinCasey0000000002", title: "Hidden", thumbnails: { medium: { url: "/y.png" } } },
    },
  ],
} satisfies youtube_v3.Schema$VideoListResponse;

export const CHANNEL_LIST = {
  kind: "youtube#channelListResponse",
  items: [
    {
      kind: "youtube#channel",
      id: "UCstandinSamShorts00001",
      snippet: {
        title: "Sam's Shorts",
        description: "Quick science facts in under a minute.",
        customUrl: "@samshorts",
        thumbnails: { default: { url: "/c.png" }, medium: { url: "/c.png" } },
      },
      statistics: { subscriberCount: "12800", viewCount: "2450000", videoCount: "148", hiddenSubscriberCount: false },
    },
  ],
} satisfies youtube_v3.Schema$ChannelListResponse;

export const MISSING_KEY = {
  error: {
    code: 403,
    message: "The request is missing a valid API key.",
    errors: [{ message: "The request is missing a valid API key.", domain: "global", reason: "forbidden" }],
    status: "PERMISSION_DENIED",
  },
} satisfies GoogleErrorBody;

export const QUOTA_EXCEEDED = {
  error: {
    code: 403,
    message: 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
    errors: [
      {
        message: 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
        domain: "youtube.quota",
        reason: "quotaExceeded",
      },
    ],
    status: "PERMISSION_DENIED",
  },
} satisfies GoogleErrorBody;
