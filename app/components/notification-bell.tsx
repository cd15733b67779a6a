import { Bell } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { NOTIFICATION_BADGE_CAP } from "~/lib/constants";

export function badgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > NOTIFICATION_BADGE_CAP ? `${NOTIFICATION_BADGE_CAP}+` : String(count);
}

/**
 * The bell with the unread count from D1. The list, mark-as-read and live delivery come with
 * the notifications feature.
 */
export function NotificationBell({ initialUnread }: { userId: string; initialUnread: number }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const badge = badgeText(initialUnread);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => ref.current && !ref.current.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-label={badge ? `Notifications, ${initialUnread} unread` : "Notifications"}
        onClick={() => setOpen((v) => !v)}
        className="relative rounded-md p-2 text-slate-600 hover:bg-slate-100"
      >
        <Bell className="h-5 w-5" aria-hidden="true" />
        {badge ? (
          <span
            data-testid="unread-badge"
            className="absolute -top-0.5 -right-0.5 min-w-[1.25rem] rounded-full bg-brand-600 px-1 text-center text-[11px] leading-5 font-bold text-white"
          >
            {badge}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="absolute right-0 mt-2 w-80 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-4 shadow-lg">
          <p className="text-sm text-slate-600">{badge ? `You have ${initialUnread} unread notifications.` : "No notifications yet"}</p>
        </div>
      ) : null}
    </div>
  );
}
