// /music/submit and /music/submissions are for music partners only (spec section 2, issue 11
// item 17): an admin without the partner flag neither sees them in the sidebar nor opens them,
// and is refused exactly like any other non-partner; the admin screens stay the admin's.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, outcome, toastOf, withCookie } from "../helpers";

const PARTNER_PAGES = ["/music/submit", "/music/submissions"] as const;

let admin: TestUser;
let partner: TestUser;
let adminPartner: TestUser;
let creator: TestUser;

beforeAll(async () => {
  [admin, partner, adminPartner, creator] = await Promise.all([createUser("admin"), createUser("partner"), createUser("admin"), createUser("creator")]);
  await env.DB.prepare("UPDATE profiles SET is_music_partner = 1 WHERE user_id = ?").bind(adminPartner.id).run();
}, 120_000);

const REFUSED = { title: "Access Denied", description: "Music partner access required to access this area." };

describe.each(PARTNER_PAGES)("%s", (path) => {
  it("refuses an admin (page and .data) as it refuses any non-partner: to /dashboard with 'Access Denied'", async () => {
    for (const user of [admin, creator]) {
      const page = await fetchApp(path, withCookie(user.cookie));
      expect(await outcome(page)).toBe("→/dashboard");
      expect(await toastOf(page)).toEqual(REFUSED);
      const single = await fetchApp(`${path}.data`, withCookie(user.cookie));
      expect(await outcome(single)).toBe("→/dashboard");
      const routeId = path === "/music/submit" ? "routes/_app/music-submit" : "routes/_app/music-submissions";
      const alone = await fetchApp(`${path}.data?_routes=${routeId}`, withCookie(user.cookie));
      expect(await outcome(alone)).toBe("→/dashboard");
    }
  });

  it("opens for a music partner, also one who is an admin (the partner flag decides)", async () => {
    for (const user of [partner, adminPartner]) {
      expect(await outcome(await fetchApp(path, withCookie(user.cookie)))).toBe("200");
      expect(await outcome(await fetchApp(`${path}.data`, withCookie(user.cookie)))).toBe("200");
    }
  });
});

describe("the sidebar", () => {
  it("lists Submit Music and Music Submissions for partners, not for admins; admins keep their admin section", async () => {
    const adminHtml = await (await fetchApp("/dashboard", withCookie(admin.cookie))).text();
    expect(adminHtml).toContain('href="/admin"');
    expect(adminHtml).toContain('href="/ai-thumbnail-editor"');
    expect(adminHtml).not.toContain('href="/music/submit"');
    expect(adminHtml).not.toContain('href="/music/submissions"');
    expect(adminHtml).not.toContain("Submit Music");

    const partnerHtml = await (await fetchApp("/dashboard", withCookie(partner.cookie))).text();
    expect(partnerHtml).toContain('href="/music/submit"');
    expect(partnerHtml).toContain('href="/music/submissions"');
  });

  it("the shell's loader data carries no partner entries for an admin", async () => {
    const res = await fetchApp("/dashboard.data?_routes=routes/_app/layout", withCookie(admin.cookie));
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("/chat-management");
    expect(body).not.toContain("/music/submit");
    expect(body).not.toContain("/music/submissions");
  });

  it("keeps the admin review screens for admins", async () => {
    expect(await outcome(await fetchApp("/admin/verifications", withCookie(admin.cookie)))).toBe("200");
    expect(await outcome(await fetchApp("/admin", withCookie(admin.cookie)))).toBe("200");
  });
});
