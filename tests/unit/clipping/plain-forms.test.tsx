import { renderToString } from "react-dom/server";
import { createMemoryRouter, Form, Link, MemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ClippersSection } from "~/modules/clipping/components/clippers";
import { CreatorCard } from "~/modules/clipping/components/creator-card";
import { AcceptInvitationSection, PendingInviteCard } from "~/modules/clipping/components/join-creator";
import { pageHref, postForm } from "~/modules/clipping/components/page-parts";
import { SourceTable } from "~/modules/clipping/components/source-table";
import type { LinkRow, SourceRow } from "~/modules/clipping/types";

// Issue 43, docs/decisions/0354: /clipping's forms are plain `<form>`s in a `<Form method="post">`'s
// markup, submitted client-side by the shell's one listener (app/ui/in-app-links.ts), and its rows'
// Delete and Revoke are plain anchors in a `<Link to="?…" preventScrollReset>`'s markup (0346). What
// the server sends must be what the Form or Link it replaces sent, and the page's parts must not run
// React Router's per-form hooks (a <Form> needs a data router: in a plain router it throws).

/** HTML rendered at /clipping inside a data router, as the page is. */
function atClipping(node: React.ReactNode, search = ""): string {
  const router = createMemoryRouter([{ path: "/clipping", element: node }], { initialEntries: [`/clipping${search}`] });
  return renderToString(<RouterProvider router={router} />);
}

describe('a plain form in a <Form method="post">\'s markup', () => {
  const attrs = { className: "min-w-0 space-y-3", "aria-label": "Submit a clip for Casey" };
  const plain = (search = "") => atClipping(<form {...attrs} {...postForm} />, search);
  const form = (search = "") => atClipping(<Form method="post" {...attrs} />, search);
  it("with a class and a label, at /clipping", () => {
    expect(plain()).toBe(form());
  });
  // The one difference, under an open dialog (?delete=…, ?revoke=…): a Form without `action` posts to
  // the URL with its query, the plain form to /clipping. Every answer but a refusal or a new invitation
  // is a redirect to /clipping either way, and the dialog is modal (0354).
  it("at /clipping?delete=…, the same but the query left out of the action", () => {
    const search = "?delete=00000000-0000-4000-8000-000000006001";
    expect(plain(search)).toBe(form(search).replace(`action="/clipping${search}"`, 'action="/clipping"'));
  });
  it("without a class (a split request's Approve and Decline)", () => {
    expect(atClipping(<form key="approve" {...postForm} />)).toBe(atClipping(<Form method="post" key="approve" />));
  });
});

describe("a row's Delete or Revoke: a plain anchor in a <Link to=\"?…\" preventScrollReset>'s markup", () => {
  for (const search of ["delete=00000000-0000-4000-8000-000000006001", "revoke=00000000-0000-4000-8000-000000000401"]) {
    it(search, () => {
      expect(
        atClipping(
          <a className="btn" href={pageHref(search)} data-discover="true">
            Delete
          </a>,
        ),
      ).toBe(
        atClipping(
          <Link to={`?${search}`} preventScrollReset className="btn">
            Delete
          </Link>,
        ),
      );
    });
  }
});

const source: SourceRow = {
  id: "00000000-0000-4000-8000-000000006001",
  name: "Studio session.mp4",
  sizeBytes: 180_000,
  status: "ready",
  createdAt: "2026-10-18T14:00:00.000Z",
  partCount: 1,
  uploadedParts: 1,
} as SourceRow;
const link: LinkRow = {
  id: "00000000-0000-4000-8000-000000000401",
  personId: "00000000-0000-4000-8000-000000000002",
  personName: "Casey Creator",
  status: "active",
  shareBps: 7000,
  createdAt: "2026-10-07T11:00:00.000Z",
  revokedAt: null,
  clipCount: 5,
  views: 60390,
  splits: [
    {
      id: "00000000-0000-4000-8000-000000006202",
      fromBps: 7000,
      shareBps: 7500,
      status: "pending",
      createdAt: "2026-12-04T10:00:00.000Z",
      decidedAt: null,
    },
  ],
} as LinkRow;

describe("/clipping's parts render without a data router (no <Form> or <Link> hooks per form or row)", () => {
  const parts: [string, React.ReactNode][] = [
    ["a creator's card (submit a clip, request a split, its folder)", <CreatorCard key="card" link={{ ...link, sources: [source] }} failure={null} />],
    ["the own folder's rows (Rename, Delete)", <SourceTable key="own" sources={[source]} own failure={null} />],
    ["the clippers (a split to answer, Revoke access)", <ClippersSection key="clippers" clippers={[link]} />],
    [
      "an invitation kept from a link (Accept, Dismiss)",
      <PendingInviteCard key="invite" invite={{ code: "abc", creatorName: "Casey" } as never} failure={null} />,
    ],
    ["the paste box (Accept invitation)", <AcceptInvitationSection key="paste" failure={null} pendingCode={null} />],
  ];
  for (const [what, node] of parts) {
    it(what, () => {
      const html = renderToString(<MemoryRouter initialEntries={["/clipping"]}>{node}</MemoryRouter>);
      expect(html).toContain('action="/clipping" method="post"');
    });
  }
  it("the rows' Delete and Revoke go to this page with the row in the query", () => {
    const html = renderToString(
      <MemoryRouter initialEntries={["/clipping"]}>
        <SourceTable sources={[source]} own failure={null} />
        <ClippersSection clippers={[link]} />
      </MemoryRouter>,
    );
    expect(html).toContain(`href="/clipping?delete=${source.id}" data-discover="true"`);
    expect(html).toContain(`href="/clipping?revoke=${link.id}" data-discover="true"`);
  });
});
