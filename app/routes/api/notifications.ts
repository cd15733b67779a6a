import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { broadcastFiles, listNotifications, markAllRead, markRead, sendBroadcast } from "~/modules/notifications/notifications.server";
import { broadcastSchema, notificationActionSchema } from "~/modules/notifications/schema";
import { domainResource } from "~/platform/http.server";
import { parseFields, parseForm, readForm } from "~/platform/body.server";
import type { Route } from "./+types/notifications";

// /api/notifications — the bell's resource route.
//   GET                      the user's notifications (newest first) and the unread count
//   GET ?since=<ISO time>    reconnect catch-up: rows created at or after it
//   POST intent=mark-read    {id}: one of the user's own rows
//   POST intent=mark-all-read [before]: all of the user's unread rows, one write
//   POST ?intent=broadcast   admins only: the broadcast form sent by XMLHttpRequest (upload
//                            progress); the intent is in the URL so the admin check runs
//                            before a large body is read
// Refusals are JSON `{ ok: false, code, error, errors }` with their status (domainResource).

const noStore = { "Cache-Control": "private, no-store" };

export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args);
  const since = new URL(args.request.url).searchParams.get("since");
  return Response.json(await listNotifications(actorOf(user), { since }), { headers: noStore });
});

export const action = domainResource(async (args: Route.ActionArgs) => {
  const user = await requireApiUser(args);
  if (new URL(args.request.url).searchParams.get("intent") === "broadcast") return broadcast(args);
  const input = await parseForm(args.request, notificationActionSchema);
  const actor = actorOf(user);
  const changed = input.intent === "mark-read" ? await markRead(actor, input.id) : await markAllRead(actor, input.before ?? null);
  return Response.json({ ok: true, changed }, { headers: noStore });
});

async function broadcast(args: Route.ActionArgs) {
  const admin = await requireApiUser(args, { admin: true });
  const form = await readForm(args.request);
  const input = parseFields(form, broadcastSchema);
  const result = await sendBroadcast(actorOf(admin), input, broadcastFiles(form), args.request);
  return Response.json({ ok: true, ...result }, { headers: noStore });
}
