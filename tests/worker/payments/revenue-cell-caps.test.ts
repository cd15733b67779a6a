// Revenue files with huge cells (issue 40 §10): a cell over its column's cap is a problem line with
// the reason, nothing is staged, and nothing reaches the database (a 9 MB video id answered 500 at
// the clips lookup; 2 MB ones were staged).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { linkChannels } from "../../factories/channels";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, ORIGIN } from "../helpers";

let admin: TestUser;
const CHANNEL = "UCcellCapsChannel000001";
const HEADER = "month,channel_id,creator_id,video_id,net_revenue,currency";

beforeAll(async () => {
  admin = await createUser("admin");
  const creator = await createUser("creator");
  await linkChannels([{ userId: creator.id, channelId: CHANNEL, title: "Caps" }]);
  await fetchApp("/auth");
}, 180_000);

function upload(month: string, csv: string) {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], "revenue.csv", { type: "text/csv" }));
  return fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
}
const stagedCount = (month: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM revenue_imports WHERE month = ?")
    .bind(month)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

describe("a revenue file with a cell over its cap", () => {
  it("a 9 MB video id: the line is a problem with the reason, not a 500, and nothing is staged", async () => {
    const huge = "v".repeat(9 * 1024 * 1024);
    const res = await upload("2022-03", `${HEADER}\n2022-03,${CHANNEL},,ok-video,10.00,USD\n2022-03,${CHANNEL},,${huge},5.00,USD\n`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Video id is longer than 64 characters.");
    expect(html).not.toContain(huge.slice(0, 1000));
    expect(await stagedCount("2022-03")).toBe(0);
  });

  it("a 2 MB video id is refused too; ids, months, amounts and currencies each have their cap", async () => {
    const rows = [
      `2022-04,${CHANNEL},,${"v".repeat(2 * 1024 * 1024)},5.00,USD`,
      `2022-04,${"U".repeat(65)},,v1,5.00,USD`,
      `2022-04,${CHANNEL},${"C".repeat(65)},v2,5.00,USD`,
      `2022-04${" ".repeat(10)}${"x".repeat(40)},${CHANNEL},,v3,5.00,USD`,
      `2022-04,${CHANNEL},,v4,${"1".repeat(65)},USD`,
      `2022-04,${CHANNEL},,v5,5.00,${"U".repeat(17)}`,
    ];
    const res = await upload("2022-04", `${HEADER}\n${rows.join("\n")}\n`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const reason of [
      "Video id is longer than 64 characters.",
      "Channel id is longer than 64 characters.",
      "Creator id is longer than 64 characters.",
      "Month is longer than 40 characters.",
      "Net revenue is longer than 64 characters.",
      "Currency is longer than 16 characters.",
    ])
      expect(html).toContain(reason);
    expect(await stagedCount("2022-04")).toBe(0);
  });

  it("a column we do not read with a huge cell, and a huge column name, are refused with a clear message", async () => {
    const extra = await upload("2022-05", `${HEADER},title\n2022-05,${CHANNEL},,v1,5.00,USD,${"t".repeat(5000)}\n`);
    expect(extra.status).toBe(200);
    expect(await extra.text()).toContain("The cell in column 7 is longer than 1,000 characters.");
    const named = await upload("2022-05", `${HEADER},${"n".repeat(300)}\n2022-05,${CHANNEL},,v1,5.00,USD,x\n`);
    expect(named.status).toBe(400);
    expect(await named.text()).toContain("Column 7&#x27;s name is longer than 200 characters.");
    expect(await stagedCount("2022-05")).toBe(0);
  });
});
