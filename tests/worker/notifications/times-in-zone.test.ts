import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { fetchApp, okText, postForm } from "../helpers";

// Issue 42 §4: times in the person's zone, written by the server in the one style of every date
// (decision 0314: "2 Mar 2026, 02:15"), not the runtime's "Sun, 01 Mar 2026 20:45:00 GMT".
// 20:45 UTC on 1 March is 02:15 on 2 March in Kolkata (UTC+05:30): the day and the minutes move.

const AT = "2026-03-01T20:45:00.000Z";
const KOLKATA = "2 Mar 2026, 02:15";

describe("times written in the person's zone (tz cookie)", () => {
  it("the admin's recent broadcasts", async () => {
    const admin = await createUser("admin");
    const res = await postForm("/admin/broadcast", { title: "Zoned broadcast", content: "Hi", audience: "all" }, { headers: { Cookie: admin.cookie } });
    expect([302, 303]).toContain(res.status);
    await env.DB.prepare("UPDATE notifications SET created_at = ? WHERE title = 'Zoned broadcast'").bind(AT).run();
    const html = await okText(fetchApp("/admin/broadcast", { headers: { Cookie: `${admin.cookie}; tz=Asia/Kolkata` } }));
    expect(html).toContain(`>${KOLKATA}</time>`);
    expect(html).not.toContain("GMT");
  });

  it("the sessions listed in Settings", async () => {
    const creator = await createUser("creator");
    await env.DB.prepare("UPDATE sessions SET created_at = ? WHERE user_id = ?").bind(AT, creator.id).run();
    const html = await okText(fetchApp("/settings", { headers: { Cookie: `${creator.cookie}; tz=Asia/Kolkata` } }));
    expect(html).toContain(`>${KOLKATA}</time>`);
    expect(html).not.toContain("GMT");
  });
});
