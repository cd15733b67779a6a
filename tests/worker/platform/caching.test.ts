import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";

// Issue 11, item 13: what is rendered for a signed-in user is never cached by anyone.
describe("Cache-Control", () => {
  it("answers private, no-store on signed-in pages and their .data", async () => {
    const user = await createUser("creator");
    for (const path of ["/dashboard", "/dashboard.data", "/settings", "/channels.data"]) {
      const res = await fetchApp(path, withCookie(user.cookie));
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
  });

  it("leaves public pages without a session alone", async () => {
    const res = await fetchApp("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control") ?? "").not.toContain("no-store");
  });
});
