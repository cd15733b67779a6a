// A money action says what it will do, to whom and how much, and asks once (issue 42 §1, decision
// 0322): "Mark funds received" and "Finalize" on /admin/payments open a confirm dialog (a state of
// the page, so it works without JavaScript) instead of posting on one click.
import { env } from "cloudflare:workers";
import { beforeAll, expect, it } from "vitest";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";

let admin: TestUser;
const MONTH = "2019-03";

beforeAll(async () => {
  admin = await createUser("admin");
  const creator = await createUser("creator");
  const channelId = `UCconf${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Confirm Channel')")
    .bind(crypto.randomUUID(), creator.id, channelId)
    .run();
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", MONTH);
  form.set(
    "file",
    new File([`month,channel_id,creator_id,video_id,net_revenue,currency\n${MONTH},${channelId},,,100.00,USD\n`], "r.csv", { type: "text/csv" }),
  );
  expect((await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form })).status).toBe(200);
  const staged = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged'").bind(MONTH).first<{ id: string }>();
  expect(await outcome(await postForm("/admin/payments", { intent: "commit", importId: staged?.id ?? "", replaces: "" }, withCookie(admin.cookie)))).toBe(
    "→/admin/payments",
  );
}, 120_000);

const page = async (query = "") => (await (await fetchApp(`/admin/payments${query}`, withCookie(admin.cookie))).text()).replaceAll("<!-- -->", "");
const postsIntent = (html: string, intent: string) => html.includes(`name="intent" value="${intent}"`);

it("the months' buttons only open the question; the dialog names the month, the money and the lines, then posts", async () => {
  const plain = await page();
  expect(plain).toContain(`href="/admin/payments?confirm=funds_received&amp;month=${MONTH}"`);
  expect(postsIntent(plain, "funds_received")).toBe(false);
  expect(plain).toContain("· 1 line ·"); // the recent imports count their lines in the singular too

  const asking = await page(`?confirm=funds_received&month=${MONTH}`);
  expect(asking).toContain("<dialog");
  expect(asking).toContain("Mark funds received for March 2019?");
  expect(asking).toContain("the platform has paid us $100.00 of net revenue for March 2019");
  expect(asking).toContain("makes $70.00 payable across 1 statement line.");
  expect(postsIntent(asking, "funds_received")).toBe(true);
  expect(await outcome(await postForm("/admin/payments", { intent: "funds_received", month: MONTH }, withCookie(admin.cookie)))).toBe("→/admin/payments");

  // A stale link to a step already taken asks nothing.
  expect(await page(`?confirm=funds_received&month=${MONTH}`)).not.toContain("Mark funds received for March 2019?");

  const finalize = await page(`?confirm=finalize&month=${MONTH}`);
  expect(finalize).toContain("Finalize March 2019?");
  expect(finalize).toContain("$70.00 becomes payable to the people of 1 statement line: their lines turn Finalized and are paid on the next payout day");
  expect(finalize).toContain("balances under $10.00 carry over");
  expect(postsIntent(finalize, "finalize")).toBe(true);
  expect(postsIntent(await page(), "finalize")).toBe(false);
});
