import { describe, expect, it } from "vitest";
import { randomToken } from "~/platform/crypto.server";
import { createUser, signInAs } from "../../factories/users";
import { fetchApp, outcome, passwordBeforeAll, postForm, withCookie } from "../helpers";

// Issue 11 item 9: a malformed Cookie header is ignored part by part (never a 500), and a session
// cookie that matches no session is cleared in the response.

const SESSION = "__Host-sb_session";

/** The Set-Cookie of a response that expires the session cookie, or undefined. */
const clearsSession = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=;`) && /Max-Age=0/.test(c));

const GARBAGE = [
  "%",
  "%%%; ;;; =; =x; a=b=c",
  `${SESSION}=%E0%A4%A`,
  `${SESSION}=%ZZ; __Host-sb_toast=%E0%A4%A`,
  "__Host-sb_toast=not.a.signed.value; sb_toast=%",
  `${SESSION}=${"x".repeat(5000)}`,
  `${SESSION}=; ${SESSION}=also-bad`,
  '"quoted=value"; \\=\\; %C3%28=%C3%28',
];

const PAGES = ["/", "/auth", "/dashboard", "/settings", "/admin", "/channels", "/dashboard.data", "/api/session", "/api/notifications", "/privacy"];

passwordBeforeAll();

describe("malformed Cookie headers", () => {
  it("answer every page as a visitor without a cookie would, never 500", async () => {
    for (const path of PAGES) {
      const expected = await outcome(await fetchApp(path));
      for (const cookie of GARBAGE) {
        const res = await fetchApp(path, withCookie(cookie));
        expect(res.status, `${path} with ${cookie.slice(0, 40)}`).toBeLessThan(500);
        expect(await outcome(res), `${path} with ${cookie.slice(0, 40)}`).toBe(expected);
      }
    }
  });

  it("a valid session cookie among garbage still signs the user in", async () => {
    const user = await createUser("creator");
    const res = await fetchApp("/settings", withCookie(`%%%; a=%E0%A4%A; ${user.cookie}; =; b`));
    expect(res.status).toBe(200);
    expect(clearsSession(res)).toBeUndefined();
  });

  it("a POST with garbage cookies is refused or answered like an anonymous one, not 500", async () => {
    for (const cookie of GARBAGE) {
      const res = await postForm("/auth/sign-out", {}, { headers: { Cookie: cookie } });
      expect(res.status).toBe(302);
    }
  });
});

describe("a session cookie that matches no session", () => {
  it("is cleared in the response: made up, unreadable, too long, ended", async () => {
    const made = `${SESSION}=${randomToken()}`;
    for (const [path, expected] of [
      ["/dashboard", "→/auth"],
      ["/settings", "→/auth"],
      ["/auth", "200"],
      ["/dashboard.data", "→/auth"],
    ] as const) {
      const res = await fetchApp(path, withCookie(made));
      expect(await outcome(res), path).toBe(expected);
      expect(clearsSession(res), path).toBeDefined();
    }
    for (const cookie of [`${SESSION}=%E0%A4%A`, `${SESSION}=${"x".repeat(300)}`]) {
      expect(clearsSession(await fetchApp("/dashboard", withCookie(cookie))), cookie.slice(0, 30)).toBeDefined();
    }

    // A session that existed and was ended from another device.
    const user = await createUser("creator");
    const other = await signInAs(user.id);
    await fetchApp("/settings", withCookie(user.cookie));
    const res = await postForm("/settings", { intent: "sign-out-others" }, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(200);
    const after = await fetchApp("/dashboard", withCookie(other.cookie));
    expect(await outcome(after)).toBe("→/auth");
    expect(clearsSession(after)).toBeDefined();
  });

  it("a live session is not cleared, and a sign-in replaces a stale cookie with one Set-Cookie of its own", async () => {
    const user = await createUser("creator");
    const live = await fetchApp("/dashboard", withCookie(user.cookie));
    expect(live.status).toBe(200);
    expect(live.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION}=`))).toEqual([]);

    // Signing out with a stale cookie: one expiring Set-Cookie, not two.
    const out = await postForm("/auth/sign-out", {}, { headers: { Cookie: `${SESSION}=${randomToken()}` } });
    expect(out.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION}=`))).toHaveLength(1);
  });
});
