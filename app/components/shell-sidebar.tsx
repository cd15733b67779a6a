import {
  BarChart3,
  Building2,
  Image,
  LayoutDashboard,
  ListMusic,
  Megaphone,
  MessageCircle,
  MessagesSquare,
  Music,
  PanelLeft,
  Scissors,
  Settings,
  Shield,
  TrendingUp,
  Upload,
  User,
  Users,
  Wallet,
  MonitorPlay,
  type IconComponent,
} from "~/ui/icons";
import { useLocation } from "react-router";
import type { AppRoute } from "~/lib/permissions";
import { Tooltip } from "~/ui/tooltip";
import { isCurrentPath } from "~/ui/in-app-links";

// The sidebar's parts of the signed-in shell (shell.tsx): its icons, the toggle button and a group of links.

const ICONS: Record<string, IconComponent> = {
  "layout-dashboard": LayoutDashboard,
  music: Music,
  upload: Upload,
  image: Image,
  youtube: MonitorPlay,
  "bar-chart": BarChart3,
  users: Users,
  scissors: Scissors,
  "message-circle": MessageCircle,
  megaphone: Megaphone,
  wallet: Wallet,
  "list-music": ListMusic,
  settings: Settings,
  user: User,
  building: Building2,
  shield: Shield,
  "messages-square": MessagesSquare,
  "trending-up": TrendingUp,
};

export function SidebarToggle({ expanded, onClick, buttonRef }: { expanded: boolean; onClick: () => void; buttonRef?: React.Ref<HTMLButtonElement> }) {
  return (
    <Tooltip content="Toggle sidebar (Ctrl+B)">
      <button
        ref={buttonRef}
        type="button"
        onClick={onClick}
        aria-controls="app-sidebar"
        aria-expanded={expanded}
        aria-label="Toggle sidebar"
        className="rounded-md p-2 text-slate-600 hover:bg-slate-100"
      >
        <PanelLeft className="h-5 w-5" aria-hidden="true" />
      </button>
    </Tooltip>
  );
}

/**
 * The links; `expanded` is the wide layout's state: under 768 px the labels always show (the classes
 * are `md:` only). Plain anchors followed by the shell's one listener (app/ui/in-app-links.ts), not a
 * NavLink each: the same page, a fraction of the server's work.
 */
export function SidebarGroup({ items, expanded }: { items: AppRoute[]; expanded: boolean }) {
  const { pathname } = useLocation();
  return (
    <ul className="space-y-0.5" data-in-app-links="">
      {items.map((item) => {
        const Icon = ICONS[item.icon] ?? LayoutDashboard;
        const current = isCurrentPath(pathname, item.path);
        return (
          <li key={`${item.section}-${item.path}`}>
            <a
              href={item.path}
              data-discover="true"
              aria-current={current ? "page" : undefined}
              title={item.label}
              className={`flex items-center gap-3 rounded-md px-2 py-2 text-sm font-medium ${current ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
            >
              <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
              <span className={expanded ? "truncate" : "truncate md:sr-only"}>{item.label}</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
