import type { ChatMessageItem } from "../types";

// Pure helpers of the /community-chat room view (chat-view.tsx) and its parts.

export const API = "/api/chat";

export type Pending = { clientId: string; body: string; mentions: { id: string; name: string }[]; status: "sending" | "unsent" };
export type ApiError = { ok: false; code: string; error: string; errors?: Record<string, string> };

const bySeq = (a: ChatMessageItem, b: ChatMessageItem) => a.seq - b.seq;

export function mergeMessages(current: ChatMessageItem[], incoming: readonly ChatMessageItem[]): ChatMessageItem[] {
  if (incoming.length === 0) return current;
  const map = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) map.set(m.id, m);
  return [...map.values()].sort(bySeq);
}

export function postChat(fields: [string, string][]): Promise<Response> {
  return fetch(API, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin", headers: { Accept: "application/json" } });
}

/** The `@query` being typed just before the caret, if any. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0 || (at > 0 && !/\s/.test(before.charAt(at - 1)))) return null;
  const query = before.slice(at + 1);
  if (query.length === 0 || query.length > 30 || /\n/.test(query) || /\s{2}/.test(query)) return null;
  return { start: at, query };
}

export function withoutTyper<T>(typers: Record<string, T>, userId: string): Record<string, T> {
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
