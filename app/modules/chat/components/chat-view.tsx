import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { useBackgroundRevalidation } from "~/ui/use-background-revalidation";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "~/ui/dialog";
import { LocalTime } from "~/ui/local-time";
import { CHAT_EDIT_WINDOW_MS, CHAT_MESSAGE_MAX, CHAT_TEXT, messageTooLong } from "../messages";
import { CHAT_TYPING, type ChatSocketMessage, TYPING_SEND_MS, TYPING_SHOW_MS } from "../protocol";
import type { ChatCatchUp, ChatHistory, ChatMember, ChatMessageItem, ChatMuteState, ChatPage, ChatRoomState } from "../types";
import { type ChatSocketStatus, useChatSocket } from "./chat-socket";
import { MessageText } from "./message-text";

// /community-chat's room: history (last 50, older on scroll), live messages from the room's socket,
// the composer with mention autocomplete, own edit/delete (admins delete any), unsent messages
// marked with a retry, catch-up after a reconnect. Messages are SENT with POST /api/chat.

const API = "/api/chat";

type Pending = { clientId: string; body: string; mentions: { id: string; name: string }[]; status: "sending" | "unsent" };
type ApiError = { ok: false; code: string; error: string; errors?: Record<string, string> };

const bySeq = (a: ChatMessageItem, b: ChatMessageItem) => a.seq - b.seq;

function mergeMessages(current: ChatMessageItem[], incoming: readonly ChatMessageItem[]): ChatMessageItem[] {
  if (incoming.length === 0) return current;
  const map = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) map.set(m.id, m);
  return [...map.values()].sort(bySeq);
}

function postChat(fields: [string, string][]): Promise<Response> {
  return fetch(API, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin", headers: { Accept: "application/json" } });
}

/** The `@query` being typed just before the caret, if any. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0 || (at > 0 && !/\s/.test(before.charAt(at - 1)))) return null;
  const query = before.slice(at + 1);
  if (query.length === 0 || query.length > 30 || /\n/.test(query) || /\s{2}/.test(query)) return null;
  return { start: at, query };
}

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
  const [editing, setEditing] = useState<{ id: string; body: string; error?: string } | null>(null);
  const [suggest, setSuggest] = useState<{ start: number; query: string; members: ChatMember[]; active: number } | null>(null);
  const [now, setNow] = useState(() => Date.now());
  /** Seqs of other people's new messages in the other rooms, heard on this room's socket since the page loaded. */
  const [activity, setActivity] = useState<Record<string, number[]>>({});
  /** Who else is typing here, until when (ms): "typing" frames, never stored (decision 0247). */
  const [typers, setTypers] = useState<Record<string, { name: string; until: number }>>({});
  const lastTypingSent = useRef(0);
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

  // ---- composer ----------------------------------------------------------------------------

  const updateSuggestions = (text: string, caret: number) => {
    const q = mentionQuery(text, caret);
    if (!q) {
      setSuggest(null);
      return;
    }
    setSuggest((s) => (s && s.query === q.query ? s : { ...q, members: s?.members ?? [], active: 0 }));
    fetch(`${API}?members=${encodeURIComponent(q.query)}`, { credentials: "same-origin" })
      .then((r) => (r.ok ? (r.json() as Promise<{ members: ChatMember[] }>) : { members: [] }))
      .then(({ members }) => setSuggest((s) => (s && s.query === q.query ? { ...s, members: members.filter((m) => m.id !== page.me.id), active: 0 } : s)))
      .catch(() => {});
  };

  const pick = (member: ChatMember) => {
    if (!suggest) return;
    const caret = suggest.start + 1 + suggest.query.length;
    const next = `${draft.slice(0, suggest.start)}@${member.name} ${draft.slice(caret)}`;
    setDraft(next);
    setMentions((ms) => (ms.some((m) => m.id === member.id) ? ms : [...ms, { id: member.id, name: member.name }]));
    setSuggest(null);
    requestAnimationFrame(() => {
      const box = boxRef.current;
      if (!box) return;
      box.focus();
      const at = suggest.start + member.name.length + 2;
      box.setSelectionRange(at, at);
    });
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const body = draft.trim();
    if (!body) {
      setError(CHAT_TEXT.emptyMessage);
      return;
    }
    if (body.length > CHAT_MESSAGE_MAX) {
      setError(messageTooLong);
      return;
    }
    const p: Pending = {
      clientId: crypto.randomUUID(),
      body,
      mentions: mentions.filter((m) => body.includes(`@${m.name}`)),
      status: "sending",
    };
    setError(null);
    setDraft("");
    setMentions([]);
    setSuggest(null);
    stickToBottom.current = true;
    setPending((list) => [...list, p]);
    void sendPending(p);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggest && suggest.members.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setSuggest({ ...suggest, active: (suggest.active + step + suggest.members.length) % suggest.members.length });
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        const member = suggest.members[suggest.active];
        if (member) pick(member);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setSuggest(null);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) submit(e as unknown as FormEvent);
  };

  // ---- own messages -------------------------------------------------------------------------

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

  const listboxId = `${composerId}-mentions`;
  const statusText = status === "live" ? "Live" : status === "connecting" ? "Connecting…" : "Reconnecting…";
  const unsentCount = pending.filter((p) => p.status === "unsent").length;

  return (
    <div className="flex min-h-0 flex-col gap-4 lg:flex-row">
      <nav aria-label="Rooms" className="lg:w-60 lg:shrink-0">
        <ul className="flex gap-2 overflow-x-auto pb-1 lg:flex-col lg:overflow-visible">
          {page.rooms.map((r) => {
            const current = r.id === roomId;
            // The loader's count up to its lastSeq, plus what arrived live after it.
            const unread = r.unread + (activity[r.id] ?? []).filter((seq) => seq > r.lastSeq).length;
            return (
              <li key={r.id} className="shrink-0">
                <Link
                  to={`/community-chat?room=${r.slug}`}
                  aria-current={current ? "page" : undefined}
                  className={`flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                    current ? "bg-slate-900 text-white" : "bg-white text-slate-800 ring-1 ring-slate-200 hover:bg-slate-100"
                  }`}
                >
                  <span className={r.archived ? "italic" : ""}>
                    #{r.name}
                    {r.archived ? " (archived)" : ""}
                  </span>
                  {unread > 0 && !current ? (
                    <span className="rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white" data-testid={`unread-${r.slug}`}>
                      {unread > 99 ? "99+" : unread}
                      <span className="sr-only"> unread</span>
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      {room ? (
        <section aria-labelledby="chat-room-title" className="flex min-w-0 flex-1 flex-col rounded-xl border border-slate-200 bg-white">
          <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-200 px-4 py-3">
            <div className="min-w-0">
              <h2 id="chat-room-title" className="text-lg font-semibold text-slate-900">
                #{room.name} {room.archived ? <Badge tone="amber">Archived</Badge> : null}
              </h2>
              {room.description ? <p className="text-sm text-slate-600">{room.description}</p> : null}
            </div>
            <div className="flex items-center gap-3 text-sm text-slate-600">
              {presence !== null ? <span data-testid="presence">{presence === 1 ? "1 here now" : `${presence} here now`}</span> : null}
              <span role="status" className={`inline-flex items-center gap-1 ${status === "live" ? "text-green-700" : "text-amber-700"}`}>
                <span aria-hidden="true" className={`h-2 w-2 rounded-full ${status === "live" ? "bg-green-600" : "bg-amber-500"}`} />
                {statusText}
              </span>
            </div>
          </header>

          <div
            ref={listRef}
            onScroll={onScroll}
            role="log"
            aria-label={`Messages in #${room.name}`}
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
              <p className="mb-3 text-center text-xs text-slate-500">The start of #{room.name}</p>
            ) : null}
            {messages.length === 0 && pending.length === 0 ? <p className="py-8 text-center text-sm text-slate-600">No messages yet. Say hello!</p> : null}
            <ol className="space-y-3">
              {messages.map((m) => {
                const mine = m.userId === page.me.id;
                const editable = mine && now - Date.parse(m.createdAt) < CHAT_EDIT_WINDOW_MS && !mute;
                return (
                  <li key={m.id} className="group flex gap-3" data-testid="chat-message" data-seq={m.seq}>
                    <Avatar name={m.authorName} url={m.authorAvatarUrl} />
                    <div className="min-w-0 flex-1">
                      <p className="text-sm">
                        <span className="font-semibold text-slate-900">{m.authorName}</span>{" "}
                        <LocalTime iso={m.createdAt} withTime className="text-xs text-slate-500" />
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
                      {(editable || mine || page.me.isAdmin) && editing?.id !== m.id ? (
                        <div className="mt-1 flex gap-3 text-xs">
                          {editable ? (
                            <button
                              type="button"
                              className="text-slate-600 underline hover:text-slate-900"
                              onClick={() => setEditing({ id: m.id, body: m.body })}
                            >
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
                              <p className="mt-3 whitespace-pre-wrap break-words text-sm text-slate-700">
                                {m.body.length > 200 ? `${m.body.slice(0, 200)}…` : m.body}
                              </p>
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
              })}
              {pending.map((p) => (
                <li key={p.clientId} className="flex gap-3 opacity-80" data-testid="pending-message">
                  <Avatar name="You" url={null} />
                  <div className="min-w-0 flex-1">
                    <p className="text-sm">
                      <span className="font-semibold text-slate-900">You</span>{" "}
                      {p.status === "unsent" ? <Badge tone="red">{CHAT_TEXT.unsent}</Badge> : <span className="text-xs text-slate-500">Sending…</span>}
                    </p>
                    <p className="whitespace-pre-wrap break-words text-sm text-slate-900">{p.body}</p>
                    {p.status === "unsent" ? (
                      <div className="mt-1 flex gap-3 text-xs">
                        <button type="button" className="text-slate-700 underline" onClick={() => void sendPending(p)}>
                          Retry
                        </button>
                        <button
                          type="button"
                          className="text-slate-700 underline"
                          onClick={() => setPending((list) => list.filter((x) => x.clientId !== p.clientId))}
                        >
                          Discard
                        </button>
                      </div>
                    ) : null}
                  </div>
                </li>
              ))}
            </ol>
          </div>

          {/* Below lg the page scrolls, not the room: the composer (with who is typing) stays pinned to the
              viewport's bottom while the room is on screen, so a phone never has to scroll to it (issue 42). */}
          <div className="sticky bottom-0 z-10 rounded-b-xl bg-white lg:static" data-testid="chat-composer-dock">
            <p className="min-h-6 px-4 pt-1 text-xs italic text-slate-600" data-testid="typing">
              {typingText(Object.values(typers).map((t) => t.name))}
            </p>

            {unsentCount > 0 ? (
              <p role="alert" className="border-t border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900">
                {unsentCount === 1 ? "1 message was not sent." : `${unsentCount} messages were not sent.`} They are sent again when the connection is back, or
                press Retry.
              </p>
            ) : null}

            <div className="border-t border-slate-200 p-3">
              {mute ? (
                <p role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="muted-notice">
                  You are muted {mute.allRooms ? "" : "in this room "}until <LocalTime iso={mute.until} withTime />. Reason: {mute.reason}
                </p>
              ) : !canPost ? (
                <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700">{room.archived ? CHAT_TEXT.archived : CHAT_TEXT.announcementsOnly}</p>
              ) : (
                <form onSubmit={submit} className="relative">
                  <label htmlFor={composerId} className="sr-only">
                    Message #{room.name}
                  </label>
                  <textarea
                    id={composerId}
                    ref={boxRef}
                    value={draft}
                    rows={2}
                    placeholder={`Message #${room.name} — type @ to mention someone`}
                    onChange={(e) => {
                      setDraft(e.target.value);
                      if (error) setError(null);
                      // Tell the room (at most every TYPING_SEND_MS; the room throttles too and checks who may post).
                      if (e.target.value.trim() && Date.now() - lastTypingSent.current >= TYPING_SEND_MS && sendFrame(CHAT_TYPING)) {
                        lastTypingSent.current = Date.now();
                      }
                      updateSuggestions(e.target.value, e.target.selectionStart ?? e.target.value.length);
                    }}
                    onKeyDown={onKeyDown}
                    onBlur={() => window.setTimeout(() => setSuggest(null), 150)}
                    role="combobox"
                    aria-expanded={suggest !== null && suggest.members.length > 0}
                    aria-controls={listboxId}
                    aria-autocomplete="list"
                    aria-activedescendant={suggest && suggest.members.length > 0 ? `${listboxId}-${suggest.active}` : undefined}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={`${composerId}-count${error ? ` ${composerId}-error` : ""}`}
                    className="block w-full resize-y rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-900 shadow-sm"
                  />
                  {suggest && suggest.members.length > 0 ? (
                    <div
                      id={listboxId}
                      role="listbox"
                      aria-label="Members to mention"
                      className="absolute bottom-full left-0 z-10 mb-1 w-72 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
                    >
                      {suggest.members.map((m, i) => (
                        <div
                          key={m.id}
                          id={`${listboxId}-${i}`}
                          role="option"
                          tabIndex={-1}
                          aria-selected={i === suggest.active}
                          onMouseDown={(e) => {
                            e.preventDefault();
                            pick(m);
                          }}
                          className={`flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm ${i === suggest.active ? "bg-slate-100" : ""}`}
                        >
                          <Avatar name={m.name} url={m.avatarUrl} small />
                          {m.name}
                        </div>
                      ))}
                    </div>
                  ) : null}
                  <div className="mt-2 flex items-center justify-between gap-2">
                    <span id={`${composerId}-count`} className={`text-xs ${draft.length > CHAT_MESSAGE_MAX ? "text-red-700" : "text-slate-500"}`}>
                      {draft.length}/{CHAT_MESSAGE_MAX}
                    </span>
                    <Button type="submit" variant="primary">
                      Send
                    </Button>
                  </div>
                  {error ? (
                    <p id={`${composerId}-error`} role="alert" className="mt-2 text-sm text-red-700">
                      {error}
                    </p>
                  ) : null}
                </form>
              )}
            </div>
          </div>
        </section>
      ) : (
        <p className="text-sm text-slate-600">No rooms yet.</p>
      )}
    </div>
  );
}

function withoutTyper<T>(typers: Record<string, T>, userId: string): Record<string, T> {
  if (!(userId in typers)) return typers;
  const { [userId]: _gone, ...rest } = typers;
  return rest;
}

/** "Mia is typing…", "Mia and Noah are typing…", "Several people are typing…", or nothing. */
export function typingText(names: readonly string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return "Several people are typing…";
}

function Avatar({ name, url, small = false }: { name: string; url: string | null; small?: boolean }) {
  const size = small ? "h-6 w-6 text-xs" : "h-8 w-8 text-sm";
  return url ? (
    <img src={url} alt="" className={`${size} shrink-0 rounded-full object-cover`} />
  ) : (
    <span aria-hidden="true" className={`${size} flex shrink-0 items-center justify-center rounded-full bg-slate-200 font-semibold text-slate-700`}>
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
