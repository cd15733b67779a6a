import { renderToString } from "react-dom/server";
import { Link, MemoryRouter, NavLink } from "react-router";
import { describe, expect, it } from "vitest";
import { InAppLink } from "~/ui/in-app-link";
import { isCurrentPath } from "~/ui/in-app-links";

// InAppLink (issue 43, docs/decisions/0346): the rows' and cards' links as plain anchors, followed by
// one listener per element (useInAppLinks) instead of a <Link> each. What the server sends must be
// what the <Link> it replaces sent: the same anchor, attributes in the same order, React Router's
// route discovery (`data-discover`) kept.

const html = (node: React.ReactNode, at = "/") => renderToString(<MemoryRouter initialEntries={[at]}>{node}</MemoryRouter>);

describe("InAppLink renders a <Link to>'s markup", () => {
  const cases: { name: string; to: string; props: Record<string, string> }[] = [
    {
      name: "a library row's 'Similar tracks'",
      to: "/music/similar/00000000-0000-4000-8000-000000001040",
      props: { "aria-label": "Similar tracks to Neon", title: "Similar tracks", className: "inline-flex h-10 w-10" },
    },
    {
      name: "an admin row's 'Manage', with its query",
      to: "/admin?status=pending&user=5fd0381c-8a64-4a5e-9c3a-5cd7268d6cca",
      props: { className: "btn", "aria-label": "Manage Bo Banned" },
    },
    { name: "a dashboard card with a fragment", to: "/payments#payout-method-heading", props: { className: "font-semibold" } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plain = html(
        <InAppLink to={c.to} {...c.props}>
          Go
        </InAppLink>,
        "/music?page=2",
      );
      expect(plain).toBe(
        html(
          <Link to={c.to} {...c.props}>
            Go
          </Link>,
          "/music?page=2",
        ),
      );
      expect(plain).toContain('data-discover="true"');
    });
  }
});

// The tabs show only at the console's own paths (CONSOLE_PATHS, no trailing slash), where
// isCurrentPath and a NavLink's `end` agree (any case).
describe("the admin console's tabs: a plain anchor marked as a NavLink end would mark it", () => {
  const tab = (pathname: string, to: string) => {
    const current = isCurrentPath(pathname, to);
    return (
      <a aria-current={current ? "page" : undefined} className={current ? "on" : "off"} href={to} data-discover="true">
        Users
      </a>
    );
  };
  const navLink = (to: string) => (
    <NavLink to={to} end className={({ isActive }) => (isActive ? "on" : "off")}>
      Users
    </NavLink>
  );
  for (const [at, to] of [
    ["/admin", "/admin"],
    ["/admin/audit-log", "/admin"],
    ["/admin/audit-log", "/admin/audit-log"],
    ["/Admin/Audit-Log", "/admin/audit-log"],
  ] as const) {
    it(`at ${at}, the tab to ${to}`, () => {
      expect(html(tab(at, to), at)).toBe(html(navLink(to), at));
    });
  }
});
