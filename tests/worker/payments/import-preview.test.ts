// Money a person can check (issue 42 §1, decision 0327): the revenue preview says who each line is
// credited to (name, e-mail, channel) and how much; previews do not pile up (a new preview replaces
// the admin's earlier one of the month, a commit sets the month's other previews aside, another
// month's preview is untouched); parallel commits still commit once; counts are pluralised.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";

const HEADER = "month,channel_id,creator_id,video_id,net_revenue,currency";
let admins: [TestUser, TestUser];
let creator: TestUser;
let other: TestUser;
let ended: TestUser;
let channelId: string;
let endedChannel: string;

beforeAll(async () => {
  admins = await Promise.all([createUser("admin"), createUser("admin")]);
  creator = await createUser("creator", { fullName: "Ada Lineholder" });
  other = await createUser("creator", { fullName: "Bo Creatorrow" });
  ended = await createUser("creator", { fullName: "Cy Ended" });
  channelId = `UCline${crypto.randomUUID().slice(0, 8)}`;
  endedChannel = `UCend${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Line Channel')").bind(
      crypto.randomUUID(),
      creator.id,
      channelId,
    ),
    env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Ended Channel')").bind(
      crypto.randomUUID(),
      ended.id,
      endedChannel,
    ),
    // An agreement that ended before the months below: matched, nothing credited (decision 0128).
    env.DB.prepare(
      "INSERT INTO payment_agreements (user_id, status, ends_on, terminated_at, termination_reason) VALUES (?, 'terminated', '2010-01-15', '2010-01-15T12:00:00Z', 'test')",
    ).bind(ended.id),
  ]);
}, 120_000);

function upload(admin: TestUser, month: string, csv: string) {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], "revenue.csv", { type: "text/csv" }));
  return fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
}
const html = async (res: Response | Promise<Response>) => (await (await res).text()).replaceAll("<!-- -->", "");
const commit = (admin: TestUser, importId: string, replaces = "") =>
  postForm("/admin/payments", { intent: "commit", importId, replaces }, withCookie(admin.cookie));
const latestStaged = async (month: string, admin: TestUser) =>
  (
    await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' AND created_by = ? ORDER BY created_at DESC LIMIT 1")
      .bind(month, admin.id)
      .first<{ id: string }>()
  )?.id ?? "";
const stagedCount = (month: string) => count("SELECT count(*) AS n FROM revenue_imports WHERE month = ? AND status = 'staged'", month);

describe("the preview's lines", () => {
  it("name the person (name and e-mail) and the channel of each line, say what is not credited, and cap the list", async () => {
    const month = "2011-01";
    const page = await html(
      upload(admins[0], month, `${HEADER}\n${month},${channelId},,,100.00,USD\n${month},,${other.creatorId},,40.00,USD\n${month},${endedChannel},,,5.00,USD\n`),
    );
    expect(page).toContain("Commit import");
    expect(page).toContain("Who is credited");
    // The channel row: the person, their e-mail, the channel's title and the id from the file.
    expect(page).toContain("Ada Lineholder");
    expect(page).toContain(creator.email);
    expect(page).toContain(`Channel Line Channel (${channelId})`);
    expect(page).toContain("$100.00 net → $70.00");
    // The creator-ID row: the person, and that it names no channel.
    expect(page).toContain("Bo Creatorrow");
    expect(page).toContain(other.email);
    expect(page).toContain("Creator ID row (not split by channel)");
    // Matched, but their agreement had ended: the line says nothing is credited.
    expect(page).toContain(ended.email);
    expect(page).toContain(`Channel Ended Channel (${endedChannel})`);
    expect(page).toContain("$5.00 net → not credited: their agreement had ended");
    expect(page).toContain("2 statement lines");
  });

  it("shows the 20 largest lines and counts the rest in the singular", async () => {
    const month = "2011-02";
    const ids: string[] = [];
    const stmts: D1PreparedStatement[] = [];
    for (let i = 0; i < 21; i++) {
      const uid = crypto.randomUUID();
      ids.push(`UCcap${i}x${uid.slice(0, 6)}`);
      stmts.push(env.DB.prepare("INSERT INTO users (id, email) VALUES (?, ?)").bind(uid, `cap-${i}-${uid.slice(0, 6)}@example.com`));
      stmts.push(env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Cap')").bind(uid, uid, ids[i]));
    }
    await env.DB.batch(stmts);
    const page = await html(upload(admins[0], month, `${HEADER}\n${ids.map((id, i) => `${month},${id},,,${i + 1}.00,USD`).join("\n")}\n`));
    expect(page).toContain("21 statement lines");
    expect(page).toContain(`Channel Cap (${ids[20]})`); // the largest
    expect(page).not.toContain(`Channel Cap (${ids[0]})`); // the smallest, left out
    expect(page).toContain("…and 1 more line, smaller.");
  });
});

describe("counts in the import summary", () => {
  it("say 1 statement line, and 1 more row with problems", async () => {
    const month = "2011-03";
    expect(await html(upload(admins[0], month, `${HEADER}\n${month},${channelId},,,1.00,USD\n`))).toContain("1 statement line;");
    // 501 unknown channels: 500 problems listed, one counted.
    const rows = Array.from({ length: 501 }, (_, i) => `${month},UCnobody,,v${i},1.00,USD`).join("\n");
    const page = await html(upload(admins[0], month, `${HEADER}\n${rows}\n`));
    expect(page).toContain("Nothing was imported");
    expect(page).toContain("…and 1 more row with problems.");
  });
});

describe("previews do not pile up", () => {
  it("a new preview replaces the admin's earlier one of the month; committing leaves no preview of the month behind", async () => {
    const month = "2011-04";
    expect((await upload(admins[0], month, `${HEADER}\n${month},${channelId},,,10.00,USD\n`)).status).toBe(200);
    const a = await latestStaged(month, admins[0]);
    expect((await upload(admins[0], month, `${HEADER}\n${month},${channelId},,,20.00,USD\n`)).status).toBe(200);
    const b = await latestStaged(month, admins[0]);
    expect(b).not.toBe(a);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE id = ? AND status = 'discarded'", a)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?", a)).toBe(0);
    // Another admin's preview of the month, and one of another month.
    expect((await upload(admins[1], month, `${HEADER}\n${month},${channelId},,,30.00,USD\n`)).status).toBe(200);
    const c = await latestStaged(month, admins[1]);
    const otherMonth = "2011-05";
    expect((await upload(admins[1], otherMonth, `${HEADER}\n${otherMonth},${channelId},,,50.00,USD\n`)).status).toBe(200);
    const d = await latestStaged(otherMonth, admins[1]);
    expect(await stagedCount(month)).toBe(2); // another admin's preview is theirs

    expect(await outcome(await commit(admins[0], b))).toBe("→/admin/payments");
    expect(await stagedCount(month)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?", c)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE month = ?", month)).toBe(1);
    // The set-aside preview is told what happened.
    const late = await commit(admins[1], c);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("went live while this one was waiting. Nothing was changed");
    // The other month's preview was untouched and commits.
    expect(await stagedCount(otherMonth)).toBe(1);
    expect(await outcome(await commit(admins[1], d))).toBe("→/admin/payments");
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE id = ? AND status = 'live'", d)).toBe(1);
  });

  it("a commit and another admin's preview and commit of a different month at the same moment both land", async () => {
    const [m1, m2] = ["2011-06", "2011-07"];
    expect((await upload(admins[0], m1, `${HEADER}\n${m1},${channelId},,,10.00,USD\n`)).status).toBe(200);
    const first = await latestStaged(m1, admins[0]);
    expect((await upload(admins[1], m2, `${HEADER}\n${m2},${channelId},,,20.00,USD\n`)).status).toBe(200);
    const second = await latestStaged(m2, admins[1]);
    const results = await Promise.all([
      commit(admins[0], first),
      commit(admins[1], second),
      upload(admins[1], m1, `${HEADER}\n${m1},${channelId},,,7.00,USD\n`),
    ]);
    expect(await outcome(results[0])).toBe("→/admin/payments");
    expect(await outcome(results[1])).toBe("→/admin/payments");
    expect(results[2].status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE id IN (?, ?) AND status = 'live'", first, second)).toBe(2);
  });

  it("parallel commits still commit once: the same preview twice, and two admins' previews of one month", async () => {
    const month = "2011-08";
    expect((await upload(admins[0], month, `${HEADER}\n${month},${channelId},,,10.00,USD\n`)).status).toBe(200);
    const a = await latestStaged(month, admins[0]);
    const twice = await Promise.all([commit(admins[0], a), commit(admins[0], a)]);
    expect((await Promise.all(twice.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE month = ?", month)).toBe(1);

    await upload(admins[0], month, `${HEADER}\n${month},${channelId},,,20.00,USD\n`);
    const b = await latestStaged(month, admins[0]);
    await upload(admins[1], month, `${HEADER}\n${month},${channelId},,,30.00,USD\n`);
    const c = await latestStaged(month, admins[1]);
    const both = await Promise.all([commit(admins[0], b, a), commit(admins[1], c, a)]);
    const outcomes = await Promise.all(both.map(outcome));
    expect(outcomes.sort()).toEqual(["409", "→/admin/payments"]);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE month = ? AND status = 'live'", month)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE month = ?", month)).toBe(1);
    expect(await stagedCount(month)).toBe(0);
  });
});
