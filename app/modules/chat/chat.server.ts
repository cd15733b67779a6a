// The chat module's public surface (docs/how-to-add-a-domain.md): routes, the worker entry, the
// room's Durable Object and other modules import from here. See docs/decisions/0160.
export * from "./admin.server";
export * from "./chat-actions.server";
export { maxSeqOf, roomIdParam } from "./rooms.server";
export { storeMessage, itemsOf, mayPostIn } from "./messages.server";
export { chatRoom, socketIdentityOf, type SocketIdentity } from "./room-object.server";
export * from "./socket.server";
export * from "./privacy.server";
