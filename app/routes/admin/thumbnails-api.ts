import { data } from "react-router";
import { DomainError } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { captionSchema, exportSchema, saveProjectSchema, sendExportSchema } from "~/modules/thumbnails/schema";
import { captionIdeas, loadProject, SAVE_BODY_LIMIT, saveProject, sendExport, storeExport } from "~/modules/thumbnails/thumbnails.server";
import { parseFields, readForm } from "~/platform/body.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/thumbnails-api";

// /ai-thumbnail-editor/api — the editor's JSON endpoints (admins only; 401/403 JSON like the other
// resource routes): GET ?project=<id> opens a saved project; POST intents save-project (layers
// JSON plus new images as `asset:<id>` files), export (the rendered PNG/JPEG), send-export (to a
// creator's bell) and caption-ideas (Workers AI where bound, 503 otherwise).

const json = (body: unknown, status = 200) => data(body, { status, headers: { "Cache-Control": "private, no-store" } });

export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { admin: true });
  const id = new URL(args.request.url).searchParams.get("project") ?? "";
  return json(await loadProject(actorOf(user), id));
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
      return json({ ok: true, captions: await captionIdeas(actor, input.title) });
    }
    default:
      throw new DomainError("invalid_input", "Unknown action.");
  }
});
