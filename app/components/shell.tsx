import { X } from "~/ui/icons";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import type { AppRoute } from "~/lib/permissions";
import { MOBILE_BREAKPOINT_PX, PROFILE_POLL_MS, SIDEBAR_COOKIE_MAX_AGE_S, SIDEBAR_COOKIE_NAME } from "~/lib/constants";
import { NotificationBell } from "~/modules/notifications/components/notification-bell";
import { PlayerBar } from "~/modules/music/components/player-bar";
import { PlayerProvider } from "~/modules/music/components/player-provider";
import { AdminGuardPending } from "./admin-guard";
import { AvatarMenu } from "./avatar-menu";
import { SidebarGroup, SidebarToggle } from "./shell-sidebar";
import { useResetOnNavigate } from "./use-reset-on-navigate";
import { useInAppLinks } from "~/ui/in-app-links";
import { useBackgroundRevalidation, useOffline } from "~/ui/use-background-revalidation";
import { OfflinePage, useOfflineNavigation } from "~/ui/offline-navigation";

export type ShellUser = {
  id: string;
  email: string;
  displayName: string;
  avatarUrl: string | null;
  isAdmin: boolean;
  approved: boolean;
  unreadCount: number;
};

export type ShellProps = {
  appName: string;
  user: ShellUser;
  sidebar: { main: AppRoute[]; admin: AppRoute[] };
  sidebarOpen: boolean;
  children: ReactNode;
};

/**
 * Whether the window is under the `md:` breakpoint, asked at the moment of a key press or click.
 * Never rendered from: the layout of both widths comes from CSS (`md:` classes), so the server's
 * HTML is already right at 375 and 1440 px and nothing flips after hydration (docs/decisions/0095).
 */
const isNarrow = () => window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`).matches;

/**
 * The signed-in shell, around the music player: the shell stays mounted while the pages inside it
 * change, so a preview keeps playing across navigations (docs/decisions/0106).
 */
export function Shell(props: ShellProps) {
  return (
    <PlayerProvider userId={props.user.id}>
      <ShellFrame {...props} />
    </PlayerProvider>
  );
}

/** The signed-in shell of spec section 2: sidebar, header, and the 30-second profile re-read. */
function ShellFrame({ appName, user, sidebar, sidebarOpen, children }: ShellProps) {
  const [open, setOpen] = useState(sidebarOpen);
  const [mobileOpen, setMobileOpen] = useState(false);
  const mobileToggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  const setDesktopOpen = useCallback((value: boolean) => {
    setOpen(value);
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we support
    document.cookie = `${SIDEBAR_COOKIE_NAME}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; samesite=lax`;
  }, []);

  const toggle = useCallback(() => {
    if (isNarrow()) setMobileOpen((v) => !v);
    else setDesktopOpen(!open);
  }, [open, setDesktopOpen]);

  /** Closes the slide-over and gives focus back to the button that opened it. */
  const closeMobile = useCallback(() => {
    setMobileOpen(false);
    mobileToggleRef.current?.focus();
  }, []);

  // Ctrl/Cmd + B toggles the sidebar; Escape closes the slide-over (its backdrop covers the header's menus).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === "b" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        toggle();
      } else if (e.key === "Escape" && mobileOpen && isNarrow()) closeMobile();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle, mobileOpen, closeMobile]);

  // Focus moves into the slide-over when it opens.
  useEffect(() => {
    if (mobileOpen) closeRef.current?.focus();
  }, [mobileOpen]);

  // Re-read the profile every 30 s: an approval or a ban shows without a reload (the server's
  // guards redirect on revalidation). Never while the server is out of reach: a failed re-read
  // would replace the page with the error screen (app/ui/use-background-revalidation.ts).
  useBackgroundRevalidation(PROFILE_POLL_MS);
  const offline = useOffline();
  // Offline, a link click waits here for the network instead of leaving the shell (decision 0313).
  const { waitingFor } = useOfflineNavigation();

  useResetOnNavigate(() => setMobileOpen(false));
  // The plain links of the sidebar and of the pages' marked lists and cards, followed client-side (0230, 0346).
  useInAppLinks();
  // A link tapped offline in the slide-over is a navigation that waits: the slide-over closes as on
  // any navigation, or it would cover the offline message and the Offline pill.
  const [seenWait, setSeenWait] = useState(waitingFor);
  if (seenWait !== waitingFor) {
    setSeenWait(waitingFor);
    if (waitingFor !== null) setMobileOpen(false);
  }

  return (
    <div className="min-h-screen bg-slate-50">
      <a href="#main" className="sr-only z-50 rounded bg-white px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>
      {/* Mobile slide-over backdrop */}
      {mobileOpen ? <div className="fixed inset-0 z-30 bg-slate-900/40 md:hidden" aria-hidden="true" onClick={closeMobile} /> : null}
      {/* data-state: the wide layout (expanded, or icons only); the slide-over under 768 px is mobileOpen. */}
      <aside
        id="app-sidebar"
        aria-label="Sidebar"
        data-state={open ? "expanded" : "collapsed"}
        className={[
          "fixed inset-y-0 left-0 z-40 flex flex-col border-r border-slate-200 bg-white duration-200",
          // under 768 px a slide-over of 18rem, out of the tab order while closed (visible at once when it opens, so
          // focus can move in; hidden only once it has slid out); from 768 px 16rem, or 3rem in icon mode
          "w-[18rem] md:visible md:translate-x-0",
          mobileOpen ? "translate-x-0 transition-[width,transform]" : "invisible -translate-x-full transition-[width,transform,visibility]",
          open ? "md:w-64" : "md:w-12",
        ].join(" ")}
      >
        <div className="flex h-16 shrink-0 items-center gap-2 border-b border-slate-200 px-3">
          <Link to="/dashboard" className="flex min-w-0 items-center gap-2" aria-label={`${appName} dashboard`}>
            <span className="inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-md bg-brand-600 text-xs font-black text-white">
              {appName.slice(0, 1).toUpperCase()}
            </span>
            <span className={`min-w-0 ${open ? "" : "md:hidden"}`}>
              <span className="flex items-center gap-1.5">
                <span className="truncate text-sm font-extrabold tracking-wider text-slate-900">{appName.toUpperCase()}</span>
                <span className="rounded bg-brand-100 px-1.5 py-0.5 text-[10px] font-bold text-brand-700">BETA</span>
              </span>
              <span className="block truncate text-xs text-slate-500">Creator Dashboard</span>
            </span>
          </Link>
          <button
            ref={closeRef}
            type="button"
            onClick={closeMobile}
            className="ml-auto rounded p-1 text-slate-500 hover:bg-slate-100 md:hidden"
            aria-label="Close sidebar"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-2 py-3">
          <SidebarGroup items={sidebar.main} expanded={open} />
          {sidebar.admin.length > 0 ? (
            <div className="mt-4 border-t border-slate-200 pt-3">
              <p className={`px-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase ${open ? "" : "md:sr-only"}`}>Management</p>
              <SidebarGroup items={sidebar.admin} expanded={open} />
            </div>
          ) : null}
        </nav>
      </aside>

      <div className={`flex min-h-screen flex-col transition-[padding] duration-200 ${open ? "md:pl-64" : "md:pl-12"}`}>
        <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/95 px-3 backdrop-blur sm:px-4">
          {/* One toggle per width, the other one display:none: each says aria-expanded of its own sidebar from the first paint. */}
          <span className="inline-flex md:hidden">
            <SidebarToggle buttonRef={mobileToggleRef} expanded={mobileOpen} onClick={() => setMobileOpen((v) => !v)} />
          </span>
          <span className="hidden md:inline-flex">
            <SidebarToggle expanded={open} onClick={() => setDesktopOpen(!open)} />
          </span>
          <p className="min-w-0 truncate text-sm text-slate-700 sm:text-base">
            Welcome back, <span className="font-semibold text-slate-900">{user.displayName}</span>
          </p>
          {!user.approved && !user.isAdmin ? (
            <span className="hidden shrink-0 rounded-full border border-amber-300 bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-800 sm:inline">
              Pending Approval
            </span>
          ) : null}
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            <span role="status" className="contents">
              {offline ? (
                <span
                  className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-slate-300 bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700"
                  title="Your work stays on this page; it reconnects by itself when the network is back."
                >
                  <span aria-hidden="true" className="h-2 w-2 rounded-full bg-slate-400" />
                  Offline
                </span>
              ) : null}
            </span>
            <NotificationBell userId={user.id} initialUnread={user.unreadCount} />
            <AvatarMenu user={user} />
          </div>
        </header>
        {!user.approved && !user.isAdmin ? (
          <div className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 sm:hidden">
            <span className="font-semibold">Pending Approval</span>
          </div>
        ) : null}
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 p-4 sm:p-6">
          <AdminGuardPending />
          {waitingFor !== null ? <OfflinePage /> : null}
          {/* Hidden, not unmounted, while waiting: a draft or a canvas on the page is kept. */}
          <div hidden={waitingFor !== null} className="contents">
            {children}
          </div>
        </main>
        <PlayerBar />
      </div>
    </div>
  );
}
