import { timeZoneFromCookie } from "~/lib/dates";
import { invalid } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import {
  authorOf,
  chatCatchUp,
  chatHistory,
  chatMembers,
  deleteMessage,
  editMessage,
  markRoomRead,
  postMessage,
  roomIdParam,
} from "~/modules/chat/chat.server";
import { chatActionSchema } from "~/modules/chat/schema";
import { parseForm } from "~/platform/body.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/chat";

// /api/chat — the community chat's resource route (the live socket is /api/chat/socket).
//   GET ?room=<id>[&before=<seq>]        the 50 messages before a seq (the newest without it), oldest first
//   GET ?room=<id>&after=<seq>[&since=]  reconnect catch-up: newer messages, and edits/deletions since `since`
//   GET ?members=<prefix>                members to mention (autocomplete)
//   POST intent=send|edit|delete|read    JSON answers; refusals are `{ ok: false, code, error }` with their status
// Signed-in, approved (admins need no approval), not banned.

const noStore = { "Cache-Control": "private, no-store" };

function seqParam(value: string | null): number | null {
  if (value === null || value === "") return null;
  if (!/^\d{1,15}$/.test(value)) throw invalid("Unknown position.");
  return Number(value);
}

export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const actor = actorOf(user);
  const params = new URL(args.request.url).searchParams;
  const members = params.get("members");
  if (members !== null) return Response.json({ members: await chatMembers(actor, members) }, { headers: noStore });
  const roomId = roomIdParam(params.get("room"));
  const after = seqParam(params.get("after"));
  if (after !== null) {
    const since = params.get("since");
    const sinceIso = since && !Number.isNaN(Date.parse(since)) ? new Date(since).toISOString() : null;
    return Response.json(await chatCatchUp(actor, roomId, after, sinceIso), { headers: noStore });
  }
  return Response.json(await chatHistory(actor, roomId, seqParam(params.get("before"))), { headers: noStore });
});

export const action = domainResource(async (args: Route.ActionArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const actor = actorOf(user);
  const input = await parseForm(args.request, chatActionSchema);
  // A refusal names the mute's end in the person's zone (the `tz` cookie; decision 0314).
  const timeZone = timeZoneFromCookie(args.request.headers.get("Cookie"));
  switch (input.intent) {
    case "send":
      return Response.json({ ok: true, message: await postMessage(actor, authorOf(user), input, { timeZone }) }, { headers: noStore });
    case "edit":
      return Response.json({ ok: true, message: await editMessage(actor, input.id, input.body, timeZone) }, { headers: noStore });
    case "delete":
      return Response.json({ ok: true, ...(await deleteMessage(actor, input.id, args.request)) }, { headers: noStore });
    case "read":
      await markRoomRead(actor, input.roomId, input.seq);
      return Response.json({ ok: true }, { headers: noStore });
  }
});
