import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { chatAdminAction } from "~/modules/chat/chat.server";
import { parseChatFrame, type ChatSocketMessage } from "~/modules/chat/protocol";
import type { ChatRoom } from "../../../workers/chat-room";
import { actorFor } from "../../factories/actors";
import type { TestUser } from "../../factories/users";
import { ORIGIN, fetchApp, postForm } from "../helpers";
import { type SocketClient, socketClient, waitFor } from "../socket-client";

// A small socket client for the chat room sockets, and helpers to post through /api/chat.

export type ChatClient = SocketClient<ChatSocketMessage>;

export function chatSocketRequest(roomId: string, cookie: string | null, origin: string | null = ORIGIN) {
  const headers = new Headers({ Upgrade: "websocket" });
  if (cookie) headers.set("Cookie", cookie);
  if (origin) headers.set("Origin", origin);
  return fetchApp(`/api/chat/socket?room=${roomId}`, { headers });
}

export { waitFor };

/** The client of a room socket's upgrade answer (checked to be 101). */
export const chatClientOf = (res: Response): ChatClient => socketClient(res, parseChatFrame, "chat protocol");

export async function connectChat(roomId: string, user: { cookie: string }): Promise<ChatClient> {
  return chatClientOf(await chatSocketRequest(roomId, user.cookie));
}

export const bodiesOf = (c: ChatClient) => c.messages.flatMap((m) => (m.type === "message" ? [m.message.body] : []));

export async function createRoom(admin: TestUser, name: string, kind: "general" | "announcements" = "general"): Promise<string> {
  await chatAdminAction(actorFor(admin, { isAdmin: true }), { intent: "create-room", name, description: `About ${name}`, kind });
  const row = await env.DB.prepare("SELECT id FROM chat_rooms WHERE name = ? ORDER BY created_at DESC LIMIT 1").bind(name).first<{ id: string }>();
  return row!.id;
}

export function send(user: { cookie: string }, roomId: string, body: string, extra: Record<string, string> = {}) {
  return postForm("/api/chat", { intent: "send", roomId, body, ...extra }, { headers: { Cookie: user.cookie } });
}

export async function sendOk(user: { cookie: string }, roomId: string, body: string, extra: Record<string, string> = {}) {
  const res = await send(user, roomId, body, extra);
  const json = (await res.json()) as { ok: boolean; message: { id: string; seq: number; body: string } };
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.message;
}

export const roomStub = (roomId: string) => env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(roomId));

/** Forgets the send-rate counts of a room (storage and the object's memory), so a test starts fresh. */
export async function resetRates(roomId: string): Promise<void> {
  await runInDurableObject(roomStub(roomId), async (o: ChatRoom, state) => {
    // biome-ignore lint/complexity/useLiteralKeys: the object's private count, reached by tests only
    o["rates"].clear();
    const keys = [...(await state.storage.list({ prefix: "rate:" })).keys()];
    if (keys.length) await state.storage.delete(keys);
  });
}

/**
 * Forgets a room's typing throttle and its cached "may post" answers (decision 0298), so a test
 * starts fresh: a test that ends mutes straight in D1 does so behind the room's back.
 */
export async function resetTyping(roomId: string): Promise<void> {
  await runInDurableObject(roomStub(roomId), (o: ChatRoom) => {
    // biome-ignore lint/complexity/useLiteralKeys: the object's private throttle, reached by tests only
    o["typingAt"].clear();
    // biome-ignore lint/complexity/useLiteralKeys: the object's private cache, reached by tests only
    o["mayPost"].clear();
  });
}

/** The person's send-rate object across rooms (bucket "chat-send", decision 0204). */
export const sendRateStub = (user: { id: string }) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`chat-send|user:${user.id}`));

/** Forgets people's send rate across rooms, so a test starts fresh. */
export async function resetSendRates(...users: { id: string }[]): Promise<void> {
  for (const user of users) await runInDurableObject(sendRateStub(user), (_o, state) => state.storage.deleteAll());
}
