import { Button } from "~/ui/button";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "~/ui/dialog";
import { LocalTime } from "~/ui/local-time";
import { Badge } from "~/ui/badge";
import { CHAT_MESSAGE_MAX, CHAT_TEXT } from "../messages";
import type { ChatMessageItem } from "../types";
import { Avatar } from "./avatar";
import type { Pending } from "./chat-helpers";
import { MessageText } from "./message-text";

export type Editing = { id: string; body: string; error?: string };

/** One message of the room: author, time, text, or the edit box; Edit (own, within the window) and Delete (own, or any for admins). */
export function MessageItem({
  m,
  mine,
  editable,
  isAdmin,
  editing,
  setEditing,
  saveEdit,
  removeMessage,
  composerId,
}: {
  m: ChatMessageItem;
  mine: boolean;
  editable: boolean;
  isAdmin: boolean;
  editing: Editing | null;
  setEditing: (editing: Editing | null) => void;
  saveEdit: () => Promise<void>;
  removeMessage: (m: ChatMessageItem) => Promise<void>;
  composerId: string;
}) {
  return (
    <li className="group flex gap-3" data-testid="chat-message" data-seq={m.seq}>
      <Avatar name={m.authorName} url={m.authorAvatarUrl} />
      <div className="min-w-0 flex-1">
        <p className="text-sm">
          <span className="font-semibold text-slate-900">{m.authorName}</span> <LocalTime iso={m.createdAt} withTime className="text-xs text-slate-500" />
          {m.editedAt ? <span className="text-xs text-slate-500"> (edited)</span> : null}
        </p>
        {editing?.id === m.id ? (
          <div className="mt-1">
            <label htmlFor={`${composerId}-edit`} className="sr-only">
              Edit message
            </label>
            <textarea
              id={`${composerId}-edit`}
              value={editing.body}
              maxLength={CHAT_MESSAGE_MAX}
              rows={2}
              onChange={(e) => setEditing({ ...editing, body: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === "Escape") setEditing(null);
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  void saveEdit();
                }
              }}
              aria-invalid={editing.error ? true : undefined}
              aria-describedby={editing.error ? `${composerId}-edit-error` : undefined}
              className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
            />
            {editing.error ? (
              <p id={`${composerId}-edit-error`} role="alert" className="mt-1 text-sm text-red-700">
                {editing.error}
              </p>
            ) : null}
            <div className="mt-1 flex gap-2">
              <Button variant="primary" onClick={() => void saveEdit()}>
                Save
              </Button>
              <Button onClick={() => setEditing(null)}>Cancel</Button>
            </div>
          </div>
        ) : (
          <p className="whitespace-pre-wrap break-words text-sm text-slate-900">
            <MessageText body={m.body} mentions={m.mentions} />
          </p>
        )}
        {(editable || mine || isAdmin) && editing?.id !== m.id ? (
          <div className="mt-1 flex gap-3 text-xs">
            {editable ? (
              <button type="button" className="text-slate-600 underline hover:text-slate-900" onClick={() => setEditing({ id: m.id, body: m.body })}>
                Edit<span className="sr-only"> your message</span>
              </button>
            ) : null}
            <Dialog>
              <DialogTrigger asChild>
                <button type="button" className="text-red-700 underline hover:text-red-900">
                  Delete<span className="sr-only">{mine ? " your message" : ` message by ${m.authorName}`}</span>
                </button>
              </DialogTrigger>
              <DialogContent title={mine ? "Delete your message?" : `Delete this message by ${m.authorName}?`}>
                <p className="mt-3 whitespace-pre-wrap break-words text-sm text-slate-700">{m.body.length > 200 ? `${m.body.slice(0, 200)}…` : m.body}</p>
                <p className="mt-2 text-sm text-slate-600">It disappears for everyone in the room. This cannot be undone.</p>
                <div className="mt-4 flex flex-wrap justify-end gap-2">
                  <DialogClose asChild>
                    <Button type="button" variant="secondary">
                      Keep it
                    </Button>
                  </DialogClose>
                  <DialogClose asChild>
                    <Button type="button" variant="danger" onClick={() => void removeMessage(m)}>
                      Delete message
                    </Button>
                  </DialogClose>
                </div>
              </DialogContent>
            </Dialog>
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** A message of one's own not yet in the room: sending, or unsent with Retry and Discard. */
export function PendingMessageItem({ p, onRetry, onDiscard }: { p: Pending; onRetry: () => void; onDiscard: () => void }) {
  return (
    <li className="flex gap-3 opacity-80" data-testid="pending-message">
      <Avatar name="You" url={null} />
      <div className="min-w-0 flex-1">
        <p className="text-sm">
          <span className="font-semibold text-slate-900">You</span>{" "}
          {p.status === "unsent" ? <Badge tone="red">{CHAT_TEXT.unsent}</Badge> : <span className="text-xs text-slate-500">Sending…</span>}
        </p>
        <p className="whitespace-pre-wrap break-words text-sm text-slate-900">{p.body}</p>
        {p.status === "unsent" ? (
          <div className="mt-1 flex gap-3 text-xs">
            <button type="button" className="text-slate-700 underline" onClick={onRetry}>
              Retry
            </button>
            <button type="button" className="text-slate-700 underline" onClick={onDiscard}>
              Discard
            </button>
          </div>
        ) : null}
      </div>
    </li>
  );
}
