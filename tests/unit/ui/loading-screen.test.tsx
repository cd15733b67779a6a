import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LOADING_SHOW_AFTER_MS, LoadingPanel, LoadingScreen, RESET_SESSION_ACTION, clearBrowserStorage, pendingPage } from "~/ui/loading-screen";

// The spec's loading screen (section 2) as the server renders it, and the rules behind it: which
// navigations get it, and what 'Reset Session' clears.

describe("LoadingPanel", () => {
  it("is a centred polite status reading 'Loading...', with no help yet", () => {
    const markup = renderToString(<LoadingPanel slow={false} />);
    expect(markup).toMatch(/role="status" aria-live="polite"/);
    expect(markup).toContain("Loading...");
    expect(markup).toContain("items-center justify-center");
    expect(markup).not.toContain("Taking longer than usual?");
    expect(markup).not.toContain("Reset Session");
  });

  it("when slow, adds 'Taking longer than usual?' and a Reset Session button that POSTs to the sign-out action", () => {
    const markup = renderToString(<LoadingPanel slow />);
    expect(markup).toContain("Taking longer than usual?");
    expect(markup).toMatch(new RegExp(`<form action="${RESET_SESSION_ACTION}" method="post"><button type="submit"[^>]*>Reset Session</button></form>`));
    expect(RESET_SESSION_ACTION).toBe("/auth/sign-out");
  });

  it("as an overlay it covers the whole screen above the shell", () => {
    expect(renderToString(<LoadingPanel slow={false} overlay />)).toContain("fixed inset-0 z-[60]");
  });
});

describe("LoadingScreen", () => {
  it("shows the spinner at once as the hydrate fallback (help comes later)", () => {
    const markup = renderToString(<LoadingScreen />);
    expect(markup).toContain("Loading...");
    expect(markup).not.toContain("Reset Session");
  });

  it("renders nothing before its delay (a fast navigation does not flash)", () => {
    expect(renderToString(<LoadingScreen overlay showAfterMs={LOADING_SHOW_AFTER_MS} />)).toBe("");
    expect(LOADING_SHOW_AFTER_MS).toBeGreaterThan(0);
    expect(LOADING_SHOW_AFTER_MS).toBeLessThanOrEqual(500);
  });
});

describe("pendingPage", () => {
  it("is the target of a move to another page, by link or by a redirect after a form", () => {
    expect(pendingPage({ state: "loading", location: { pathname: "/channels" } }, "/dashboard")).toBe("/channels");
    expect(pendingPage({ state: "loading", location: { pathname: "/dashboard" }, formMethod: "POST" }, "/auth")).toBe("/dashboard");
  });

  it("is nothing when idle, while a form submits, or when the page shown reloads (filters, revalidation)", () => {
    expect(pendingPage({ state: "idle" }, "/dashboard")).toBeUndefined();
    expect(pendingPage({ state: "submitting", location: { pathname: "/channels" } }, "/dashboard")).toBeUndefined();
    expect(pendingPage({ state: "loading", location: { pathname: "/admin" } }, "/admin")).toBeUndefined();
  });
});

describe("clearBrowserStorage", () => {
  const store = () => {
    const s = new Map<string, string>([["k", "v"]]);
    return { s, clear: () => s.clear() };
  };

  it("empties local and session storage", () => {
    const local = store();
    const session = store();
    clearBrowserStorage(() => [local, session]);
    expect(local.s.size).toBe(0);
    expect(session.s.size).toBe(0);
  });

  it("goes on when a storage refuses or cannot be reached", () => {
    const session = store();
    const refusing = {
      clear: () => {
        throw new Error("SecurityError");
      },
    };
    expect(() => clearBrowserStorage(() => [refusing, session, null])).not.toThrow();
    expect(session.s.size).toBe(0);
    expect(() =>
      clearBrowserStorage(() => {
        throw new Error("blocked");
      }),
    ).not.toThrow();
  });
});
