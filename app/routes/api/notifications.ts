import { z } from "zod";
import { broadcastSchema, fieldErrors } from "~/modules/notifications/schema";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { broadcastFiles, formFields, listNotifications, markAllRead, markRead, sendBroadcast } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/notifications";

// /api/notifications — the bell's resource route.
//   GET                      the user's notifications (newest first) and the unread count
//   GET ?since=<ISO time>    reconnect catch-up: rows created at or after it
//   POST intent=mark-read    {id}: one of the user's own rows
//   POST intent=mark-all-read [before]: all of the user's unread rows, one write
//   POST ?intent=broadcast   admins only: the broadcast form sent by XMLHttpRequest (upload
//                            progress); the intent is in the URL so the admin check runs
//                            before a large body is read

const noStore = { "Cache-Control": "private, no-store" };

export async function loader(args: Route.LoaderArgs) {
  const user = await requireApiUser(args);
  const url = new URL(args.request.url);
  const since = url.searchParams.get("since");
  const list = await listNotifications(user.id, { since });
  return Response.json(list, { headers: noStore });
}

const markReadSchema = z.object({ intent: z.literal("mark-read"), id: z.string().uuid() });
const markAllSchema = z.object({ intent: z.literal("mark-all-read"), before: z.string().max(40).optional() });

export async function action(args: Route.ActionArgs) {
  const user = await requireApiUser(args);
  if (new URL(args.request.url).searchParams.get("intent") === "broadcast") return broadcast(args);
  const form = await args.request.formData();
  const intent = form.get("intent");

  if (intent === "mark-read") {
    const parsed = markReadSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return Response.json({ error: "Invalid notification id" }, { status: 400, headers: noStore });
    const changed = await markRead(user.id, parsed.data.id);
    return Response.json({ ok: true, changed }, { headers: noStore });
  }

  if (intent === "mark-all-read") {
    const parsed = markAllSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return Response.json({ error: "Invalid request" }, { status: 400, headers: noStore });
    const changed = await markAllRead(user.id, parsed.data.before ?? null);
    return Response.json({ ok: true, changed }, { headers: noStore });
  }

  return Response.json({ error: "Unknown intent" }, { status: 400, headers: noStore });
}

async function broadcast(args: Route.ActionArgs) {
  const user = await requireApiUser(args, { admin: true });
  const form = await args.request.formData();
  const parsed = broadcastSchema.safeParse(formFields(form));
  if (!parsed.success) return Response.json({ ok: false, errors: fieldErrors(parsed.error) }, { status: 400, headers: noStore });
  const outcome = await sendBroadcast(args.request, user.id, parsed.data, broadcastFiles(form));
  if (!outcome.ok) return Response.json({ ok: false, errors: outcome.errors }, { status: outcome.status, headers: noStore });
  return Response.json(outcome, { headers: noStore });
}
