import { type Dispatch, type RefObject, type SetStateAction, useState } from "react";
import { Button } from "~/ui/button";
import { CHAT_EDIT_WINDOW_MS } from "../messages";
import type { ChatMessageItem } from "../types";
import { type ApiError, mergeMessages, type Pending, postChat } from "./chat-helpers";
import { type Editing, MessageItem, PendingMessageItem } from "./chat-message-item";

/** The room's message log: older on demand, the messages (own edit/delete, admins delete any), then one's own unsent ones. */
export function ChatMessageList({
  roomName,
  listRef,
  onScroll,
  hasMore,
  loadingOlder,
  loadOlder,
  messages,
  pending,
  meId,
  isAdmin,
  now,
  muted,
  composerId,
  setMessages,
  setError,
  sendPending,
  setPending,
}: {
  roomName: string;
  listRef: RefObject<HTMLDivElement | null>;
  onScroll: () => void;
  hasMore: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<void>;
  messages: ChatMessageItem[];
  pending: Pending[];
  meId: string;
  isAdmin: boolean;
  now: number;
  muted: boolean;
  composerId: string;
  setMessages: Dispatch<SetStateAction<ChatMessageItem[]>>;
  setError: (error: string | null) => void;
  sendPending: (p: Pending) => Promise<void>;
  setPending: Dispatch<SetStateAction<Pending[]>>;
}) {
  const [editing, setEditing] = useState<Editing | null>(null);

  const removeMessage = async (m: ChatMessageItem) => {
    const res = await postChat([
      ["intent", "delete"],
      ["id", m.id],
    ]).catch(() => null);
    if (res?.ok || res?.status === 404) setMessages((list) => list.filter((x) => x.id !== m.id));
    else setError("The message was not deleted. Try again.");
  };

  const saveEdit = async () => {
    if (!editing) return;
    const res = await postChat([
      ["intent", "edit"],
      ["id", editing.id],
      ["body", editing.body],
    ]).catch(() => null);
    if (res?.ok) {
      const { message } = (await res.json()) as { message: ChatMessageItem };
      setMessages((list) => mergeMessages(list, [message]));
      setEditing(null);
      return;
    }
    const body = (await res?.json().catch(() => null)) as ApiError | null;
    setEditing({ ...editing, error: body?.errors?.body ?? body?.error ?? "The message was not saved. Try again." });
  };

  return (
    <div
      ref={listRef}
      onScroll={onScroll}
      role="log"
      aria-label={`Messages in #${roomName}`}
      aria-live="polite"
      tabIndex={0}
      className="h-[55vh] min-h-48 overflow-y-auto px-4 py-3 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {hasMore ? (
        <div className="mb-3 text-center">
          <Button onClick={() => void loadOlder()} disabled={loadingOlder}>
            {loadingOlder ? "Loading…" : "Load older messages"}
          </Button>
        </div>
      ) : messages.length > 0 ? (
        <p className="mb-3 text-center text-xs text-slate-500">The start of #{roomName}</p>
      ) : null}
      {messages.length === 0 && pending.length === 0 ? <p className="py-8 text-center text-sm text-slate-600">No messages yet. Say hello!</p> : null}
      <ol className="space-y-3">
        {messages.map((m) => {
          const mine = m.userId === meId;
          const editable = mine && now - Date.parse(m.createdAt) < CHAT_EDIT_WINDOW_MS && !muted;
          return (
            <MessageItem
              key={m.id}
              m={m}
              mine={mine}
              editable={editable}
              isAdmin={isAdmin}
              editing={editing}
              setEditing={setEditing}
              saveEdit={saveEdit}
              removeMessage={removeMessage}
              composerId={composerId}
            />
          );
        })}
        {pending.map((p) => (
          <PendingMessageItem
            key={p.clientId}
            p={p}
            onRetry={() => void sendPending(p)}
            onDiscard={() => setPending((list) => list.filter((x) => x.clientId !== p.clientId))}
          />
        ))}
      </ol>
    </div>
  );
}
