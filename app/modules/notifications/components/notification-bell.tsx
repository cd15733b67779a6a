import { Bell, Check, CheckCheck } from "~/ui/icons";
import { formatDate } from "~/lib/dates";
import { useTimeZone } from "~/ui/time-zone";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { NOTIFICATION_BADGE_CAP } from "~/lib/constants";
import { mergeNotifications, type NotificationList } from "~/modules/notifications/notifications";
import { NOTIFICATION_PUSHED_EVENT, type NotificationItem, type SocketMessage } from "~/modules/notifications/protocol";
import { signOutToAuth, useAccountEventHandler } from "./account-events";
import { useNotificationSocket } from "./notification-socket";

// The header bell (spec section 2): unread badge ('9+' above 9), dropdown list newest first,
// 'Mark as read' per item, 'Mark all as read', 'No notifications yet'. New notifications arrive
// on the user's socket; on every (re)connect the list catches up from /api/notifications, so
// nothing is missed and nothing shows twice (items are merged by id). Failures stay silent.

export function badgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > NOTIFICATION_BADGE_CAP ? `${NOTIFICATION_BADGE_CAP}+` : String(count);
}

const API = "/api/notifications";

async function fetchList(since?: string | null): Promise<NotificationList | null> {
  try {
    const res = await fetch(since ? `${API}?since=${encodeURIComponent(since)}` : API, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (!res.ok) return null;
    return (await res.json()) as NotificationList;
  } catch {
    return null;
  }
}

async function post(fields: Record<string, string>): Promise<boolean> {
  try {
    const res = await fetch(API, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin" });
    return res.ok;
  } catch {
    return false;
  }
}

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
/** "3 minutes ago", or past a month the date in the person's zone, as every screen writes it (decision 0314). */
function timeAgo(iso: string, timeZone: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return RELATIVE.format(Math.min(0, seconds), "second");
  if (abs < 3600) return RELATIVE.format(Math.round(seconds / 60), "minute");
  if (abs < 86400) return RELATIVE.format(Math.round(seconds / 3600), "hour");
  if (abs < 86400 * 30) return RELATIVE.format(Math.round(seconds / 86400), "day");
  return formatDate(iso, timeZone);
}

export function NotificationBell({ initialUnread }: { userId: string; initialUnread: number }) {
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<NotificationItem[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [unread, setUnread] = useState(initialUnread);
  const [announcement, setAnnouncement] = useState("");
  const [connected, setConnected] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const loadedRef = useRef(false);
  /** Ids pushed while a catch-up request is in flight (the response may predate them). */
  const pushedDuringFetch = useRef<Set<string> | null>(null);
  const panelId = useId();
  const onAccountEvent = useAccountEventHandler();

  // The shell re-reads the profile every 30 s; the server's count is the authority then.
  useEffect(() => setUnread(initialUnread), [initialUnread]);

  const catchUp = useCallback(async () => {
    const newest = loadedRef.current ? (itemsRef.current[0]?.createdAt ?? null) : null;
    pushedDuringFetch.current = new Set();
    const list = await fetchList(newest);
    const pushed = pushedDuringFetch.current;
    pushedDuringFetch.current = null;
    if (!list) return;
    const known = new Set(list.notifications.map((n) => n.id));
    const extra = [...(pushed ?? [])].filter((id) => !known.has(id)).length;
    setItems((current) => mergeNotifications(current, list.notifications));
    setUnread(list.unreadCount + extra);
    loadedRef.current = true;
    setLoaded(true);
  }, []);

  const onMessage = useCallback(
    (m: SocketMessage) => {
      if (m.type === "notification") {
        const n = m.notification;
        if (itemsRef.current.some((x) => x.id === n.id)) return;
        pushedDuringFetch.current?.add(n.id);
        setItems((current) => mergeNotifications(current, [n]));
        if (!n.isRead) setUnread((u) => u + 1);
        setAnnouncement(`New notification: ${n.title}`);
        window.dispatchEvent(new CustomEvent(NOTIFICATION_PUSHED_EVENT, { detail: n }));
      } else if (m.type === "read") {
        // Another tab marked something read: follow, then take the count from the server.
        setItems((current) =>
          current.map((n) =>
            !n.isRead && (m.ids === "all" ? !m.before || n.createdAt <= m.before : m.ids.includes(n.id)) ? { ...n, isRead: true, readAt: m.readAt } : n,
          ),
        );
        void catchUp();
      } else if (m.type === "account") {
        onAccountEvent(m.event);
      }
    },
    [catchUp, onAccountEvent],
  );

  useNotificationSocket({
    onMessage,
    onOpen: () => {
      setConnected(true);
      void catchUp();
    },
    onClose: () => setConnected(false),
    onSessionEnded: (banned) => {
      setConnected(false);
      if (banned) onAccountEvent("banned");
      else void signOutToAuth();
    },
  });

  // Opening the list before the socket ever connected still shows it.
  useEffect(() => {
    if (open && !loadedRef.current) void catchUp();
  }, [open, catchUp]);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.focus();
    const onDown = (e: MouseEvent) => ref.current && !ref.current.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const markRead = (id: string) => {
    const item = itemsRef.current.find((n) => n.id === id);
    if (!item || item.isRead) return;
    setItems((current) => current.map((n) => (n.id === id ? { ...n, isRead: true, readAt: new Date().toISOString() } : n)));
    setUnread((u) => Math.max(0, u - 1));
    void post({ intent: "mark-read", id });
  };

  const markAll = () => {
    const before = itemsRef.current[0]?.createdAt;
    const readAt = new Date().toISOString();
    setItems((current) => current.map((n) => (n.isRead ? n : { ...n, isRead: true, readAt })));
    setUnread(0);
    void post(before ? { intent: "mark-all-read", before } : { intent: "mark-all-read" });
  };

  const badge = badgeText(unread);
  return (
    <div className="relative" ref={ref} data-socket={connected ? "open" : "closed"}>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
        onClick={() => setOpen((v) => !v)}
        className="relative rounded-md p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        <Bell className="h-5 w-5" aria-hidden="true" />
        {badge ? (
          <span
            data-testid="unread-badge"
            aria-hidden="true"
            className="absolute -top-0.5 -right-0.5 min-w-[1.25rem] rounded-full bg-brand-600 px-1 text-center text-[11px] leading-5 font-bold text-white"
          >
            {badge}
          </span>
        ) : null}
      </button>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      {open ? (
        <section
          id={panelId}
          ref={panelRef}
          tabIndex={-1}
          aria-label="Notifications"
          className="fixed inset-x-2 top-16 z-50 flex max-h-[75vh] flex-col rounded-lg border border-slate-200 bg-white shadow-lg outline-none sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-96"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
            <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
            <button
              type="button"
              onClick={markAll}
              disabled={unread === 0}
              className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent"
            >
              <CheckCheck className="h-3.5 w-3.5" aria-hidden="true" />
              Mark all as read
            </button>
          </div>
          {items.length === 0 ? (
            <p className="px-4 py-8 text-center text-sm text-slate-600">{loaded ? "No notifications yet" : "Loading..."}</p>
          ) : (
            <ul className="divide-y divide-slate-100 overflow-y-auto" aria-label="Notification list">
              {items.map((n) => (
                <NotificationRow key={n.id} item={n} onMarkRead={markRead} />
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}

function NotificationRow({ item, onMarkRead }: { item: NotificationItem; onMarkRead: (id: string) => void }) {
  const timeZone = useTimeZone();
  const titleId = useId();
  return (
    <li className={`px-4 py-3 ${item.isRead ? "bg-white" : "bg-brand-50/60"}`} data-testid="notification-item" data-read={item.isRead}>
      <div className="flex items-start gap-2">
        {!item.isRead ? <span className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-brand-600" aria-hidden="true" /> : null}
        <div className="min-w-0 flex-1">
          <p id={titleId} className={`text-sm break-words ${item.isRead ? "font-medium text-slate-800" : "font-semibold text-slate-900"}`}>
            {item.isRead ? null : <span className="sr-only">Unread: </span>}
            {item.title}
          </p>
          <p className="mt-0.5 text-sm break-words whitespace-pre-line text-slate-700">{item.content}</p>
          {item.imageUrl ? (
            <img src={item.imageUrl} alt={`Attached to ${item.title}`} loading="lazy" className="mt-2 max-h-48 w-full rounded-md object-cover" />
          ) : null}
          {item.videoUrl ? (
            // biome-ignore lint/a11y/useMediaCaption: clips attached by admins come without a caption file; the title names them
            <video
              src={item.videoUrl}
              controls
              preload="metadata"
              playsInline
              aria-label={`Video for ${item.title}`}
              className="mt-2 max-h-56 w-full rounded-md bg-black"
            />
          ) : null}
          <div className="mt-1 flex items-center justify-between gap-2">
            <time dateTime={item.createdAt} className="text-xs text-slate-500">
              {timeAgo(item.createdAt, timeZone)}
            </time>
            {!item.isRead ? (
              <button
                type="button"
                onClick={() => onMarkRead(item.id)}
                aria-describedby={titleId}
                className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <Check className="h-3.5 w-3.5" aria-hidden="true" />
                Mark as read
              </button>
            ) : null}
          </div>
        </div>
      </div>
    </li>
  );
}
