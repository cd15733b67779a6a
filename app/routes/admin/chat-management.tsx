import { RowList } from "~/ui/row-list";
import { Form, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { chatAdminAction, chatAdminPage } from "~/modules/chat/chat.server";
import { MessageText } from "~/modules/chat/components/message-text";
import { MUTE_PERIODS, MUTE_REASON_MAX, ROOM_DESCRIPTION_MAX, ROOM_KIND_OPTIONS, ROOM_NAME_MAX } from "~/modules/chat/messages";
import { chatAdminSchema } from "~/modules/chat/schema";
import type { AdminFeedItem, AdminRoom } from "~/modules/chat/types";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "~/ui/dialog";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import type { Route } from "./+types/chat-management";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";

// /chat-management (admins): rooms (create, rename, describe, archive, restore, reorder), the
// recent messages across rooms with delete, mutes with a period and a reason. Every action is
// audit-logged by the chat module. docs/decisions/0160.

export const meta = () => [{ title: "Chat Management | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  return chatAdminPage(actorOf(admin));
});

const TITLES = {
  "create-room": "Room not created",
  "update-room": "Room not saved",
  "archive-room": "Room not archived",
  "restore-room": "Room not restored",
  "move-room": "Room not moved",
  "delete-message": "Message not deleted",
  mute: "User not muted",
  unmute: "Mute not ended",
};

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const input = await parseForm(args.request, chatAdminSchema);
  const { message } = await chatAdminAction(actorOf(admin), input, args.request);
  return redirectWithToast(args.request, "/chat-management", { type: "success", title: "Done", description: message });
}, TITLES);

export default function ChatManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { rooms, feed, mutes } = loaderData;
  const failure = useActionFailure(actionData);
  const createErrors = failure?.intent === "create-room" ? failure.errors : {};

  return (
    <>
      <PageHeader title="Chat Management" description="Rooms, recent messages and mutes. Every action is recorded in the audit log." />
      <FailureAlert failure={failure} />

      <Section id="chat-rooms-heading" title="Rooms">
        <ul className="mt-3 space-y-3">
          {rooms.map((room, i) => (
            <RoomRow key={room.id} room={room} first={i === 0} last={i === rooms.length - 1} />
          ))}
        </ul>
        <Form method="post" className="mt-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-[1fr_2fr_1fr_auto] sm:items-end">
          <input type="hidden" name="intent" value="create-room" />
          <RoomFields
            nameLabel="New room name"
            values={failure?.intent === "create-room" ? (failure.values ?? {}) : {}}
            errors={createErrors}
            submit="Create room"
          />
        </Form>
      </Section>

      <Section id="chat-mutes-heading" title="Muted users" className="mt-10">
        <RowList items={mutes} empty="Nobody is muted.">
          {(m) => (
            <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <div>
                <p className="font-medium text-slate-900">
                  {m.name} <span className="font-normal text-slate-600">{m.roomName ? `in #${m.roomName}` : "in every room"}</span>
                </p>
                <p className="text-slate-600">
                  Until <LocalTime iso={m.until} withTime /> · {m.reason}
                  {m.mutedByName ? ` · by ${m.mutedByName}` : ""}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="unmute" />
                <input type="hidden" name="muteId" value={m.id} />
                <Button type="submit" aria-label={`Unmute ${m.name} ${m.roomName ? `in #${m.roomName}` : "in every room"}`}>
                  Unmute
                </Button>
              </Form>
            </li>
          )}
        </RowList>
      </Section>

      <Section id="chat-feed-heading" title="Recent messages" className="mt-10">
        <RowList items={feed} empty="No messages yet.">
          {(m) => <FeedRow key={m.id} item={m} muted={mutes.some((x) => x.userId === m.userId && (x.roomId === null || x.roomId === m.roomId))} />}
        </RowList>
      </Section>
    </>
  );
}

function RoomRow({ room, first, last }: { room: AdminRoom; first: boolean; last: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-semibold text-slate-900">
            #{room.name} {room.kind === "announcements" ? <Badge tone="violet">Admins post</Badge> : null}{" "}
            {room.archived ? <Badge tone="amber">Archived</Badge> : null}
          </p>
          <p className="text-sm text-slate-600">{room.description || "No description."}</p>
          <p className="text-xs text-slate-500">
            {room.messageCount} {room.messageCount === 1 ? "message" : "messages"}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <MoveRoom room={room} direction="up" disabled={first || busy} />
          <MoveRoom room={room} direction="down" disabled={last || busy} />
          <Form method="post">
            <input type="hidden" name="intent" value={room.archived ? "restore-room" : "archive-room"} />
            <input type="hidden" name="roomId" value={room.id} />
            <Button type="submit" variant={room.archived ? "secondary" : "dangerOutline"} disabled={busy}>
              {room.archived ? `Restore #${room.name}` : `Archive #${room.name}`}
            </Button>
          </Form>
        </div>
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-slate-800">Edit #{room.name}</summary>
        <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-[1fr_2fr_1fr_auto] sm:items-end">
          <input type="hidden" name="intent" value="update-room" />
          <input type="hidden" name="roomId" value={room.id} />
          <RoomFields nameLabel="Name" values={room} errors={{}} submit="Save" />
        </Form>
      </details>
    </li>
  );
}

/** One step up or down the room order (the rooms' order in the chat's list). */
function MoveRoom({ room, direction, disabled }: { room: AdminRoom; direction: "up" | "down"; disabled: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="move-room" />
      <input type="hidden" name="roomId" value={room.id} />
      <input type="hidden" name="direction" value={direction} />
      <Button type="submit" disabled={disabled} aria-label={`Move #${room.name} ${direction}`}>
        {direction === "up" ? "↑" : "↓"}
      </Button>
    </Form>
  );
}

/** The fields of the room form (create and edit): name, description, who posts, and the button. */
function RoomFields({
  nameLabel,
  values,
  errors,
  submit,
}: {
  nameLabel: string;
  values: { name?: string; description?: string; kind?: string };
  errors: Record<string, string | undefined>;
  submit: string;
}) {
  return (
    <>
      <Field label={nameLabel} name="name" required maxLength={ROOM_NAME_MAX} error={errors.name} defaultValue={values.name} />
      <Field label="Description" name="description" maxLength={ROOM_DESCRIPTION_MAX} error={errors.description} defaultValue={values.description} />
      <Select label="Who posts" name="kind" options={ROOM_KIND_OPTIONS} defaultValue={values.kind ?? "general"} />
      <Button type="submit" variant="primary">
        {submit}
      </Button>
    </>
  );
}

function FeedRow({ item, muted }: { item: AdminFeedItem; muted: boolean }) {
  return (
    <li className="py-3 text-sm" data-testid="feed-message">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-slate-600">
            <span className="font-medium text-slate-900">{item.authorName}</span> in #{item.roomName} · <LocalTime iso={item.createdAt} withTime />
            {item.editedAt ? " · edited" : ""}
          </p>
          <p className={`mt-1 whitespace-pre-wrap break-words ${item.deletedAt ? "text-slate-400 line-through" : "text-slate-900"}`}>
            <MessageText body={item.body} mentions={item.mentions} />
          </p>
          {item.deletedAt ? <p className="text-xs text-slate-500">Deleted</p> : null}
        </div>
        {item.deletedAt ? null : (
          <Dialog>
            <DialogTrigger asChild>
              <Button type="button" variant="dangerOutline" aria-label={`Delete message by ${item.authorName}: ${item.body.slice(0, 40)}`}>
                Delete
              </Button>
            </DialogTrigger>
            <DialogContent title={`Delete this message by ${item.authorName}?`}>
              <p className="mt-3 whitespace-pre-wrap break-words text-sm text-slate-700">
                {item.body.length > 200 ? `${item.body.slice(0, 200)}…` : item.body}
              </p>
              <p className="mt-2 text-sm text-slate-600">It disappears at once from every open chat. This cannot be undone.</p>
              <Form method="post" className="mt-4 flex flex-wrap justify-end gap-2">
                <input type="hidden" name="intent" value="delete-message" />
                <input type="hidden" name="id" value={item.id} />
                <DialogClose asChild>
                  <Button type="button" variant="secondary">
                    Keep it
                  </Button>
                </DialogClose>
                <Button type="submit" variant="danger">
                  Delete message
                </Button>
              </Form>
            </DialogContent>
          </Dialog>
        )}
      </div>
      {muted || item.authorIsAdmin ? null : (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm text-slate-700">Mute {item.authorName}</summary>
          <Form method="post" className="mt-2 grid gap-3 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end">
            <input type="hidden" name="intent" value="mute" />
            <input type="hidden" name="userId" value={item.userId} />
            {/* This message's room by default; every room is one choice away (decision 0246). */}
            <Select
              label="Where"
              name="roomId"
              options={[
                { value: item.roomId, label: `In #${item.roomName}` },
                { value: "", label: "In every room" },
              ]}
              defaultValue={item.roomId}
            />
            <Select label="For" name="minutes" options={MUTE_PERIODS} defaultValue="60" />
            <Field label="Reason" name="reason" required maxLength={MUTE_REASON_MAX} />
            <Button type="submit" variant="danger">
              Mute {item.authorName}
            </Button>
          </Form>
        </details>
      )}
    </li>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
