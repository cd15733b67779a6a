import { type Dispatch, type FormEvent, type KeyboardEvent, type RefObject, type SetStateAction, useRef, useState } from "react";
import { Button } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import { CHAT_MESSAGE_MAX, CHAT_TEXT, messageTooLong } from "../messages";
import { CHAT_TYPING, TYPING_SEND_MS } from "../protocol";
import type { ChatMember, ChatMuteState, ChatRoomState } from "../types";
import { Avatar } from "./avatar";
import { API, mentionQuery, type Pending, typingText } from "./chat-helpers";

type Mention = { id: string; name: string };

/**
 * The room's composer dock: who is typing, the unsent notice, then the muted / read-only notice or the
 * composer with mention autocomplete. A message that passes the checks goes to `onSend`.
 */
export function ChatComposer({
  room,
  canPost,
  mute,
  typerNames,
  unsentCount,
  composerId,
  boxRef,
  draft,
  setDraft,
  mentions,
  setMentions,
  error,
  setError,
  meId,
  sendFrame,
  onSend,
}: {
  room: ChatRoomState;
  canPost: boolean;
  mute: ChatMuteState | null;
  typerNames: string[];
  unsentCount: number;
  composerId: string;
  boxRef: RefObject<HTMLTextAreaElement | null>;
  draft: string;
  setDraft: Dispatch<SetStateAction<string>>;
  mentions: Mention[];
  setMentions: Dispatch<SetStateAction<Mention[]>>;
  error: string | null;
  setError: Dispatch<SetStateAction<string | null>>;
  meId: string;
  sendFrame: (data: string) => boolean;
  onSend: (p: Pending) => void;
}) {
  const [suggest, setSuggest] = useState<{ start: number; query: string; members: ChatMember[]; active: number } | null>(null);
  const lastTypingSent = useRef(0);

  const updateSuggestions = (text: string, caret: number) => {
    const q = mentionQuery(text, caret);
    if (!q) {
      setSuggest(null);
      return;
    }
    setSuggest((s) => (s && s.query === q.query ? s : { ...q, members: s?.members ?? [], active: 0 }));
    fetch(`${API}?members=${encodeURIComponent(q.query)}`, { credentials: "same-origin" })
      .then((r) => (r.ok ? (r.json() as Promise<{ members: ChatMember[] }>) : { members: [] }))
      .then(({ members }) => setSuggest((s) => (s && s.query === q.query ? { ...s, members: members.filter((m) => m.id !== meId), active: 0 } : s)))
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
    onSend(p);
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

  const listboxId = `${composerId}-mentions`;

  return (
    <div className="sticky bottom-0 z-10 rounded-b-xl bg-white lg:static" data-testid="chat-composer-dock">
      <p className="min-h-6 px-4 pt-1 text-xs italic text-slate-600" data-testid="typing">
        {typingText(typerNames)}
      </p>

      {unsentCount > 0 ? (
        <p role="alert" className="border-t border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900">
          {unsentCount === 1 ? "1 message was not sent." : `${unsentCount} messages were not sent.`} They are sent again when the connection is back, or press
          Retry.
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
  );
}
