import { Badge } from "~/ui/badge";
import type { ChatRoomState } from "../types";
import type { ChatSocketStatus } from "./chat-socket";

/** The room's name, description, who is here and the socket's state. */
export function ChatRoomHeader({ room, presence, status }: { room: ChatRoomState; presence: number | null; status: ChatSocketStatus }) {
  const statusText = status === "live" ? "Live" : status === "connecting" ? "Connecting…" : "Reconnecting…";
  return (
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
  );
}
