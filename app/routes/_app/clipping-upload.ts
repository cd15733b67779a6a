import { data } from "react-router";
import { invalid } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { abortUpload, completeUpload, startUpload, uploadPart } from "~/modules/clipping/clipping.server";
import { CLIPPING_MESSAGES, SOURCE_PART_BYTES, uploadActionSchema } from "~/modules/clipping/schema";
import { parseFields, readForm } from "~/platform/body.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/clipping-upload";

// POST /clipping/upload — a source video in parts (docs/decisions/0153): intent start (name, size,
// the first part as `chunk`), part (sourceId, partNumber, chunk), complete, abort. Each request
// carries at most one part, far under the Worker's 100 MB body limit. JSON answers.
const BODY_LIMIT = { maxBytes: SOURCE_PART_BYTES + 64 * 1024, tooLarge: invalid(CLIPPING_MESSAGES.badPart) };

export const action = domainResource(async (args: Route.ActionArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const actor = actorOf(user);
  const input = parseFields(await readForm(args.request, BODY_LIMIT), uploadActionSchema);
  const headers = { "Cache-Control": "private, no-store" };
  switch (input.intent) {
    case "start":
      return data({ ok: true, ...(await startUpload(actor, args.request, input)) }, { headers });
    case "part":
      return data({ ok: true, ...(await uploadPart(actor, input)) }, { headers });
    case "complete":
      return data({ ok: true, ...(await completeUpload(actor, args.request, input.sourceId)) }, { headers });
    case "abort":
      await abortUpload(actor, input.sourceId);
      return data({ ok: true }, { headers });
  }
});

export function loader() {
  return new Response("Not Found", { status: 404 });
}
