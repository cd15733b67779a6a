import { userIdsByEmail } from "~/modules/accounts/accounts.server";
import { channelThumbnailSource, channelThumbnailSources, STAND_IN_THUMBNAIL_PATH } from "~/modules/channels/channels.server";
import { DomainError, invalid, notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { providerFetch } from "~/platform/oauth.server";
import { imageKindOf, imageProblem, MAX_IMAGE_BYTES, THUMBNAIL_MESSAGES } from "./messages";
import type { ChannelSource } from "./types";

// ---- A creator's channel thumbnail (decision 0184) ------------------------------------------------

/** Hosts YouTube serves channel thumbnails from; a stored URL elsewhere is not fetched. */
const CHANNEL_IMAGE_HOSTS = /^(?:[a-z0-9-]+\.)*(?:ggpht\.com|googleusercontent\.com|ytimg\.com)$/;

/** Linked channels to open a thumbnail from: by channel title/handle, or the creator's e-mail. */
export async function channelSources(actor: Actor, search: string): Promise<ChannelSource[]> {
  authorize(actor, "thumbnail", "use");
  const term = search.trim().slice(0, 200);
  const filter = term.includes("@") ? { userIds: [...(await userIdsByEmail([term.toLowerCase()])).values()] } : { search: term };
  const rows = await channelThumbnailSources(actor, filter);
  return rows.map((r) => ({ id: r.id, title: r.title, handle: r.handle, hasThumbnail: r.thumbnailUrl !== null }));
}

/**
 * A linked channel's thumbnail, fetched server-side from the URL the channels module stored for it
 * (never a URL from the client): https on YouTube's image hosts only, no redirects, checked by its
 * bytes and the upload limits. Returns the image bytes and type.
 */
export async function channelThumbnail(actor: Actor, request: Request, channelRowId: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string }> {
  authorize(actor, "thumbnail", "use");
  const channel = /^[A-Za-z0-9_-]{1,64}$/.test(channelRowId) ? await channelThumbnailSource(actor, channelRowId) : null;
  if (!channel) throw notFound("Channel not found.");
  // channelImageUrl (channels module) let through https or, in development builds with DEV_TOOLS=1,
  // the stand-in provider's path on our own origin, which providerFetch answers in-process (decision 0185).
  const standIn = __DEV_TOOLS_BUILD__ && channel.thumbnailUrl?.startsWith(STAND_IN_THUMBNAIL_PATH);
  const url = channel.thumbnailUrl && URL.canParse(channel.thumbnailUrl, request.url) ? new URL(channel.thumbnailUrl, request.url) : null;
  if (!url || (!standIn && (url.protocol !== "https:" || url.username || url.port || !CHANNEL_IMAGE_HOSTS.test(url.hostname)))) {
    throw invalid(THUMBNAIL_MESSAGES.noChannelThumbnail, { title: "Image not opened" });
  }
  let res: Response;
  try {
    res = await providerFetch(request, url.toString(), { redirect: "manual", headers: { Accept: "image/*" } });
  } catch {
    throw new DomainError("unavailable", THUMBNAIL_MESSAGES.channelThumbnailFailed, { title: "Image not opened" });
  }
  if (res.status !== 200 || !res.body) throw new DomainError("unavailable", THUMBNAIL_MESSAGES.channelThumbnailFailed, { title: "Image not opened" });
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_IMAGE_BYTES) throw invalid(THUMBNAIL_MESSAGES.tooLarge, { title: "Image not opened" });
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_IMAGE_BYTES) {
      await reader.cancel().catch(() => {});
      throw invalid(THUMBNAIL_MESSAGES.tooLarge, { title: "Image not opened" });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  const problem = imageProblem(size, bytes.subarray(0, 512 * 1024));
  if (problem) throw invalid(problem, { title: "Image not opened" });
  return { bytes, type: imageKindOf(bytes) as string };
}
