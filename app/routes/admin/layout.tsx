import { Outlet, useLocation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireAdmin } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/layout";

// The admin area, behind the admin guard, inside the signed-in shell of routes/_app/layout (one
// shell for app and admin pages). Pages guard themselves as well.
export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

const ADMIN_TABS = [
  { to: "/admin", label: "Users" },
  { to: "/admin/verifications", label: "Channel verifications" },
  { to: "/admin/music", label: "Music review" },
  { to: "/admin/agencies", label: "Agencies" },
  { to: "/admin/payments", label: "Payments" },
  { to: "/admin/campaigns", label: "Campaigns" },
  { to: "/admin/broadcast", label: "Broadcast" },
  { to: "/admin/audit-log", label: "Audit log" },
  { to: "/admin/settings", label: "Settings" },
  { to: "/admin/system-status", label: "System status" },
];

const CONSOLE_PATHS = new Set(ADMIN_TABS.map((t) => t.to));

export default function AdminLayout() {
  return (
    <>
      <AdminTabs />
      <Outlet />
    </>
  );
}

/**
 * The console's tabs: plain anchors followed by the shell's one listener, as the sidebar's
 * (app/ui/in-app-links.ts, 0346), not a NavLink each. They show only at a console path itself, so the
 * current tab is the one whose path that is (what a NavLink `end` marks there).
 */
function AdminTabs() {
  const { pathname } = useLocation();
  if (!CONSOLE_PATHS.has(pathname)) return null;
  return (
    <nav aria-label="Admin console" className="mb-6 -mx-1 overflow-x-auto">
      <ul className="flex min-w-max gap-1 border-b border-slate-200 px-1" data-in-app-links="">
        {ADMIN_TABS.map((t) => {
          const current = t.to === pathname;
          return (
            <li key={t.to}>
              <a
                aria-current={current ? "page" : undefined}
                className={`inline-block border-b-2 px-3 py-2 text-sm font-medium ${
                  current ? "border-slate-900 text-slate-900" : "border-transparent text-slate-600 hover:text-slate-900"
                }`}
                href={t.to}
                data-discover="true"
              >
                {t.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
