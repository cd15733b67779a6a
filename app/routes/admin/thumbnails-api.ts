import { data } from "react-router";
import { DomainError } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { backgroundSchema, captionSchema, channelThumbnailSchema, exportSchema, saveProjectSchema, sendExportSchema } from "~/modules/thumbnails/schema";
import {
  captionIdeas,
  channelSources,
  channelThumbnail,
  generateBackground,
  loadProject,
  SAVE_BODY_LIMIT,
  saveProject,
  sendExport,
  storeExport,
} from "~/modules/thumbnails/thumbnails.server";
import { parseFields, readForm } from "~/platform/body.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/thumbnails-api";

// /ai-thumbnail-editor/api — the editor's JSON endpoints (admins only; 401/403 JSON like the other
// resource routes): GET ?project=<id> opens a saved project; POST intents save-project (layers
// JSON plus new images as `asset:<id>` files), export (the rendered PNG/JPEG), send-export (to a
// creator's bell) and caption-ideas (Workers AI where bound, 503 otherwise;
// per-admin hourly limits, 429, decision 0187). GET ?channels=<search>
// lists linked channels; POST channel-thumbnail answers a channel's stored thumbnail image (fetched
// server-side, decision 0184) and generate-background a Workers AI image (503 where none is bound).

const json = (body: unknown, status = 200) => data(body, { status, headers: { "Cache-Control": "private, no-store" } });
const image = ({ bytes, type }: { bytes: Uint8Array<ArrayBuffer>; type: string }) =>
  new Response(bytes, { headers: { "Content-Type": type, "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" } });

export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { admin: true });
  const params = new URL(args.request.url).searchParams;
  const channels = params.get("channels");
  if (channels !== null) return json({ channels: await channelSources(actorOf(user), channels) });
  return json(await loadProject(actorOf(user), params.get("project") ?? ""));
});

export const action = domainResource(async (args: Route.ActionArgs) => {
  const user = await requireApiUser(args, { admin: true });
  const actor = actorOf(user);
  const form = await readForm(args.request, SAVE_BODY_LIMIT);
  switch (form.get("intent")) {
    case "save-project": {
      const input = parseFields(form, saveProjectSchema);
      return json({ ok: true, ...(await saveProject(actor, args.request, input, form)) });
    }
    case "export": {
      const input = parseFields(form, exportSchema);
      return json({ ok: true, export: await storeExport(actor, args.request, input, form.get("file")) });
    }
    case "send-export": {
      const input = parseFields(form, sendExportSchema);
      return json({ ok: true, ...(await sendExport(actor, args.request, input)) });
    }
    case "caption-ideas": {
      const input = parseFields(form, captionSchema);
      return json({ ok: true, captions: await captionIdeas(actor, args.request, input.title) });
    }
    case "channel-thumbnail": {
      const input = parseFields(form, channelThumbnailSchema);
      return image(await channelThumbnail(actor, args.request, input.channelId));
    }
    case "generate-background": {
      const input = parseFields(form, backgroundSchema);
      return image(await generateBackground(actor, args.request, input.prompt));
    }
    default:
      throw new DomainError("invalid_input", "Unknown action.");
  }
});
