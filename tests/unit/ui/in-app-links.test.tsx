import { renderToString } from "react-dom/server";
import { Link, MemoryRouter, NavLink } from "react-router";
import { describe, expect, it } from "vitest";
import { SimilarLink, similarHref } from "~/modules/music/components/similar-link";
import { isCurrentPath } from "~/ui/in-app-links";

// Issue 43, docs/decisions/0346: the links of the library's and the admin's rows, the admin tabs and
// the dashboard's cards are plain anchors, followed client-side by the shell's one listener
// (useInAppLinks), instead of a <Link> each. What the server sends must be what the <Link> it
// replaces sent: the same anchor, attributes in the same order, React Router's route discovery
// (`data-discover`) kept.

const html = (node: React.ReactNode, at = "/") => renderToString(<MemoryRouter initialEntries={[at]}>{node}</MemoryRouter>);

describe("a plain anchor in a <Link to>'s markup", () => {
  it("a library row's 'Similar tracks' (SimilarLink)", () => {
    const track = { id: "00000000-0000-4000-8000-000000001040", title: "Neon & Rain" };
    const plain = html(<SimilarLink track={track} />, "/music?page=2");
    const link = html(
      <Link
        to={similarHref(track.id)}
        aria-label={`Similar tracks to ${track.title}`}
        title="Similar tracks"
        className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full border border-slate-200 bg-white text-slate-600 hover:bg-slate-100"
      >
        {/* the icon, compared on its own below */}
      </Link>,
      "/music?page=2",
    );
    expect(plain.replace(/<svg.*<\/svg>/, "")).toBe(link);
    expect(plain).toContain('data-discover="true"');
  });

  for (const to of ["/admin?status=pending&user=5fd0381c-8a64-4a5e-9c3a-5cd7268d6cca", "/payments#payout-method-heading", "/music"]) {
    it(`an admin row's 'Manage' or a dashboard card: ${to}`, () => {
      expect(
        html(
          <a className="btn" aria-label="Manage Bo" href={to} data-discover="true">
            Manage
          </a>,
          "/admin",
        ),
      ).toBe(
        html(
          <Link to={to} className="btn" aria-label="Manage Bo">
            Manage
          </Link>,
          "/admin",
        ),
      );
    });
  }
});

// The admin tabs show only at the console's own paths (routes/admin/layout.tsx CONSOLE_PATHS), where
// "the tab's path is the pathname" marks what a NavLink `end` marked; the sidebar's isCurrentPath
// (0230) also ignores case, as NavLink `end` does.
describe("the admin console's tabs and the sidebar: a plain anchor marked as a NavLink end would mark it", () => {
  const tab = (pathname: string, to: string, current = to === pathname) => {
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
    ["/admin", "/admin/audit-log"],
  ] as const) {
    it(`a tab at ${at}, to ${to}`, () => {
      expect(html(tab(at, to), at)).toBe(html(navLink(to), at));
    });
  }
  for (const [at, to] of [
    ["/music", "/music"],
    ["/Music", "/music"],
    ["/music/submit", "/music"],
  ] as const) {
    it(`a sidebar link (isCurrentPath) at ${at}, to ${to}`, () => {
      expect(html(tab(at, to, isCurrentPath(at, to)), at)).toBe(html(navLink(to), at));
    });
  }
});
