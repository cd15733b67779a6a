import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useBackgroundRevalidation } from "~/ui/use-background-revalidation";
import { type ChatSocketMessage, TYPING_SHOW_MS } from "../protocol";
import type { ChatCatchUp, ChatHistory, ChatMessageItem, ChatMuteState, ChatPage, ChatRoomState } from "../types";
import { API, type ApiError, mergeMessages, type Pending, postChat, withoutTyper } from "./chat-helpers";
import { ChatComposer } from "./chat-composer";
import { ChatMessageList } from "./chat-message-list";
import { ChatRoomHeader } from "./chat-room-header";
import { ChatRoomNav } from "./chat-room-nav";
import { type ChatSocketStatus, useChatSocket } from "./chat-socket";

// /community-chat's room: history (last 50, older on scroll), live messages from the room's socket,
// the composer with mention autocomplete, own edit/delete (admins delete any), unsent messages
// marked with a retry, catch-up after a reconnect. Messages are SENT with POST /api/chat.
// The parts: chat-room-nav, chat-room-header, chat-message-list (+ chat-message-item), chat-composer;
// pure helpers in chat-helpers.ts. This file keeps the wiring: the socket, the room's state, sending.

export function ChatView({ page }: { page: ChatPage }) {
  const room0 = page.room;
  const [room, setRoom] = useState<ChatRoomState | null>(room0);
  const [messages, setMessages] = useState<ChatMessageItem[]>(page.messages);
  const [hasMore, setHasMore] = useState(page.hasMore);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [pending, setPending] = useState<Pending[]>([]);
  const [presence, setPresence] = useState<number | null>(null);
  const [status, setStatus] = useState<ChatSocketStatus>("connecting");
  const [mute, setMute] = useState<ChatMuteState | null>(page.mute);
  const [draft, setDraft] = useState("");
  const [mentions, setMentions] = useState<{ id: string; name: string }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  /** Seqs of other people's new messages in the other rooms, heard on this room's socket since the page loaded. */
  const [activity, setActivity] = useState<Record<string, number[]>>({});
  /** Who else is typing here, until when (ms): "typing" frames, never stored (decision 0247). */
  const [typers, setTypers] = useState<Record<string, { name: string; until: number }>>({});
  const listRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const stickToBottom = useRef(true);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const composerId = useId();
  const roomId = room0?.id ?? null;

  const canPost = page.canPost && room !== null && !room.archived && (room.kind !== "announcements" || page.me.isAdmin);
  const lastSeq = messages.at(-1)?.seq ?? 0;

  // The other rooms' unread counts grow live ("activity" frames on this room's socket); the page's
  // data again once a minute while the tab is visible corrects them (deletions, frames missed while
  // the socket was down). This room's messages come over its socket; the view keeps its own list.
  useBackgroundRevalidation(60_000);

  // "… is typing" fades TYPING_SHOW_MS after the last frame.
  useEffect(() => {
    const untils = Object.values(typers).map((t) => t.until);
    if (untils.length === 0) return;
    const next = Math.min(...untils);
    const t = window.setTimeout(
      () => {
        const now = Date.now();
        setTypers((cur) => Object.fromEntries(Object.entries(cur).filter(([, v]) => v.until > now)));
      },
      Math.max(50, next - Date.now()),
    );
    return () => window.clearTimeout(t);
  }, [typers]);

  // Edit buttons appear only within the 15 minutes: re-check once a minute.
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(t);
  }, []);

  // Keep the view at the newest message unless the reader scrolled up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list grows
  useEffect(() => {
    const el = listRef.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages.length, pending.length]);

  // The room is read up to the newest message while the tab is visible.
  useEffect(() => {
    if (!roomId || lastSeq === 0) return;
    const mark = () => {
      if (document.visibilityState !== "visible") return;
      postChat([
        ["intent", "read"],
        ["roomId", roomId],
        ["seq", String(lastSeq)],
      ]).catch(() => {});
    };
    const t = window.setTimeout(mark, 800);
    document.addEventListener("visibilitychange", mark);
    return () => {
      window.clearTimeout(t);
      document.removeEventListener("visibilitychange", mark);
    };
  }, [roomId, lastSeq]);

  const sendPending = useCallback(
    async (p: Pending) => {
      if (!roomId) return;
      setPending((list) => list.map((x) => (x.clientId === p.clientId ? { ...x, status: "sending" } : x)));
      let res: Response;
      try {
        res = await postChat([
          ["intent", "send"],
          ["roomId", roomId],
          ["body", p.body],
          ["clientId", p.clientId],
          ...p.mentions.map((m): [string, string] => ["mentions", m.id]),
        ]);
      } catch {
        // Offline or the server unreachable: kept, clearly marked, retried on reconnect.
        setPending((list) => list.map((x) => (x.clientId === p.clientId ? { ...x, status: "unsent" } : x)));
        return;
      }
      if (res.ok) {
        const { message } = (await res.json()) as { message: ChatMessageItem };
        setMessages((list) => mergeMessages(list, [message]));
        setPending((list) => list.filter((x) => x.clientId !== p.clientId));
        return;
      }
      if (res.status >= 500) {
        setPending((list) => list.map((x) => (x.clientId === p.clientId ? { ...x, status: "unsent" } : x)));
        return;
      }
      // Refused (too fast, muted, archived, too long): the text goes back into the box, with why.
      const body = (await res.json().catch(() => null)) as (ApiError & { details?: { mutedUntil?: string; reason?: string } }) | null;
      if (res.status === 401) {
        window.location.assign("/auth");
        return;
      }
      setPending((list) => list.filter((x) => x.clientId !== p.clientId));
      setDraft((d) => (d.trim() ? `${p.body}\n${d}` : p.body));
      setMentions((ms) => [...ms, ...p.mentions.filter((m) => !ms.some((x) => x.id === m.id))]);
      setError(body?.errors?.body ?? body?.error ?? "The message was not sent.");
      boxRef.current?.focus();
    },
    [roomId],
  );

  const catchUp = useCallback(
    async (droppedAt: string) => {
      if (!roomId) return;
      const after = messagesRef.current.at(-1)?.seq ?? 0;
      try {
        const res = await fetch(`${API}?room=${roomId}&after=${after}&since=${encodeURIComponent(droppedAt)}`, { credentials: "same-origin" });
        if (!res.ok) return;
        const up = (await res.json()) as ChatCatchUp;
        const gone = new Set(up.deleted.map((d) => d.id));
        setMessages((list) => mergeMessages(list, [...up.messages, ...up.edited]).filter((m) => !gone.has(m.id)));
      } catch {
        // The next reconnect tries again.
      }
      // What could not be sent while offline goes now.
      for (const p of pendingRef.current) if (p.status === "unsent") void sendPending(p);
    },
    [roomId, sendPending],
  );

  const onMessage = useCallback(
    (m: ChatSocketMessage) => {
      switch (m.type) {
        case "message":
        case "edited":
          if (m.message.roomId === roomId) setMessages((list) => mergeMessages(list, [m.message]));
          // Their message arrived: they are no longer typing.
          if (m.type === "message") setTypers((t) => withoutTyper(t, m.message.userId));
          break;
        case "typing":
          if (m.userId !== page.me.id) setTypers((t) => ({ ...t, [m.userId]: { name: m.name, until: Date.now() + TYPING_SHOW_MS } }));
          break;
        case "deleted":
          setMessages((list) => list.filter((x) => x.id !== m.id));
          break;
        case "presence":
          setPresence(m.count);
          break;
        case "mute":
          setMute(m.mute);
          break;
        case "room":
          setRoom(m.room);
          break;
        case "activity":
          if (m.roomId !== roomId && m.userId !== page.me.id) {
            setActivity((a) => (a[m.roomId]?.includes(m.seq) ? a : { ...a, [m.roomId]: [...(a[m.roomId] ?? []), m.seq] }));
          }
          break;
        case "banned":
          break;
      }
    },
    [roomId, page.me.id],
  );

  const sendFrame = useChatSocket(roomId, {
    onMessage,
    onStatus: setStatus,
    onReconnected: (droppedAt) => void catchUp(droppedAt),
    onSessionEnded: (banned) => {
      if (banned) window.location.assign("/auth");
      else window.location.reload();
    },
  });

  const loadOlder = useCallback(async () => {
    if (!roomId || loadingOlder || !hasMore) return;
    const first = messagesRef.current[0]?.seq;
    setLoadingOlder(true);
    const el = listRef.current;
    const fromBottom = el ? el.scrollHeight - el.scrollTop : 0;
    try {
      const res = await fetch(`${API}?room=${roomId}${first ? `&before=${first}` : ""}`, { credentials: "same-origin" });
      if (res.ok) {
        const page = (await res.json()) as ChatHistory;
        stickToBottom.current = false;
        setMessages((list) => mergeMessages(list, page.messages));
        setHasMore(page.hasMore);
        requestAnimationFrame(() => {
          if (el) el.scrollTop = el.scrollHeight - fromBottom;
        });
      }
    } finally {
      setLoadingOlder(false);
    }
  }, [roomId, loadingOlder, hasMore]);

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (el.scrollTop < 40 && hasMore && !loadingOlder) void loadOlder();
  };

  const onSend = (p: Pending) => {
    stickToBottom.current = true;
    setPending((list) => [...list, p]);
    void sendPending(p);
  };

  const unsentCount = pending.filter((p) => p.status === "unsent").length;

  return (
    <div className="flex min-h-0 flex-col gap-4 lg:flex-row">
      <ChatRoomNav rooms={page.rooms} roomId={roomId} activity={activity} />

      {room ? (
        <section aria-labelledby="chat-room-title" className="flex min-w-0 flex-1 flex-col rounded-xl border border-slate-200 bg-white">
          <ChatRoomHeader room={room} presence={presence} status={status} />

          <ChatMessageList
            roomName={room.name}
            listRef={listRef}
            onScroll={onScroll}
            hasMore={hasMore}
            loadingOlder={loadingOlder}
            loadOlder={loadOlder}
            messages={messages}
            pending={pending}
            meId={page.me.id}
            isAdmin={page.me.isAdmin}
            now={now}
            muted={Boolean(mute)}
            composerId={composerId}
            setMessages={setMessages}
            setError={setError}
            sendPending={sendPending}
            setPending={setPending}
          />

          {/* Below lg the page scrolls, not the room: the composer (with who is typing) stays pinned to the
              viewport's bottom while the room is on screen, so a phone never has to scroll to it (issue 42). */}
          <ChatComposer
            room={room}
            canPost={canPost}
            mute={mute}
            typerNames={Object.values(typers).map((t) => t.name)}
            unsentCount={unsentCount}
            composerId={composerId}
            boxRef={boxRef}
            draft={draft}
            setDraft={setDraft}
            mentions={mentions}
            setMentions={setMentions}
            error={error}
            setError={setError}
            meId={page.me.id}
            sendFrame={sendFrame}
            onSend={onSend}
          />
        </section>
      ) : (
        <p className="text-sm text-slate-600">No rooms yet.</p>
      )}
    </div>
  );
}
