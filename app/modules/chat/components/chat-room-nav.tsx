import { Link } from "react-router";
import type { ChatRoomSummary } from "../types";

/** The room links, each with its unread count. */
export function ChatRoomNav({ rooms, roomId, activity }: { rooms: readonly ChatRoomSummary[]; roomId: string | null; activity: Record<string, number[]> }) {
  return (
    <nav aria-label="Rooms" className="lg:w-60 lg:shrink-0">
      <ul className="flex gap-2 overflow-x-auto pb-1 lg:flex-col lg:overflow-visible">
        {rooms.map((r) => {
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
  );
}
