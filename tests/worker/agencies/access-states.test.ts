// Who keeps the agency dashboard (issue 11, item 7): only a manager with an approved account of an
// approved, active agency (admins aside). A pending, rejected or inactive agency, and a manager
// whose own account is pending or rejected, get the application status page instead: for the page,
// its .data request and every dashboard action, which change nothing.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "~/lib/errors";
import { agencyDashboardAction } from "~/modules/agencies/agencies.server";
import { actorFor } from "../../factories/actors";
import { createUser, type TestUser, type UserKind } from "../../factories/users";
import { count, get, one, post, redirectOf } from "../admin-agency-helpers";

beforeAll(async () => {
  await (await get("/terms-of-service")).arrayBuffer();
}, 180_000);

let n = 0;

type Case = {
  name: string;
  account: UserKind;
  approval: "pending" | "approved" | "rejected";
  status: "active" | "inactive";
  headline: string;
};

const REFUSED: Case[] = [
  { name: "pending agency", account: "creator", approval: "pending", status: "active", headline: "Your application is under review" },
  { name: "rejected agency", account: "creator", approval: "rejected", status: "active", headline: "Your application was not approved" },
  { name: "approved but inactive agency", account: "creator", approval: "approved", status: "inactive", headline: "Your agency is inactive" },
  {
    name: "approved, active agency; the manager's account pending",
    account: "pending",
    approval: "approved",
    status: "active",
    headline: "Your account is awaiting approval",
  },
  {
    name: "approved, active agency; the manager's account rejected",
    account: "rejected",
    approval: "approved",
    status: "active",
    headline: "Your account was not approved",
  },
];

/** A user of `account` kind who owns and manages an agency in the given state, with a co-manager and a token. */
async function managerOf(c: Pick<Case, "account" | "approval" | "status">) {
  const user = await createUser(c.account);
  const other = await createUser("creator");
  const agencyId = crypto.randomUUID();
  const slug = `states-${Date.now().toString(36)}-${++n}`;
  const tokenId = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO agencies (id, name, slug, contact_email, status, approval_status, created_by, user_id)
       VALUES (?, ?, ?, 'states@example.com', ?, ?, ?, ?)`,
    ).bind(agencyId, `Agency ${slug}`, slug, c.status, c.approval, user.id, user.id),
    env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, created_by) VALUES (?, ?, ?, ?)").bind(crypto.randomUUID(), agencyId, user.id, user.id),
    env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, created_by) VALUES (?, ?, ?, ?)").bind(crypto.randomUUID(), agencyId, other.id, user.id),
    env.DB.prepare("INSERT INTO agency_signup_tokens (id, agency_id, token, created_by) VALUES (?, ?, ?, ?)").bind(tokenId, agencyId, `tok-${slug}`, user.id),
  ]);
  return { user, other, agencyId, tokenId, name: `Agency ${slug}` };
}

/** Every dashboard form, filled in for this agency. */
function forms(m: { other: TestUser; agencyId: string; tokenId: string }): Record<string, string>[] {
  return [
    { intent: "update_profile", agencyId: m.agencyId, name: "Renamed Agency", contactEmail: "renamed@example.com", description: "Changed" },
    { intent: "create_token", agencyId: m.agencyId },
    { intent: "revoke_token", agencyId: m.agencyId, id: m.tokenId },
    { intent: "add_manager", agencyId: m.agencyId, email: `states-invite-${n}@example.com` },
    { intent: "remove_manager", agencyId: m.agencyId, id: m.other.id },
  ];
}

/** What the dashboard actions could change, to compare before and after. */
async function snapshot(agencyId: string) {
  return {
    agency: await one("SELECT name, contact_email, description, updated_at FROM agencies WHERE id = ?", agencyId),
    tokens: await one("SELECT count(*) AS n, count(revoked_at) AS revoked FROM agency_signup_tokens WHERE agency_id = ?", agencyId),
    managers: await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ?", agencyId),
    invitations: await count("SELECT count(*) AS n FROM agency_manager_invitations WHERE agency_id = ?", agencyId),
  };
}

describe.each(REFUSED.map((c) => [c.name, c] as const))("%s", (_name, c) => {
  it("the page and its .data go to the status page, which explains why", async () => {
    const m = await managerOf(c);
    for (const path of [
      "/agency-dashboard",
      "/agency-dashboard.data",
      `/agency-dashboard?agency=${m.agencyId}`,
      `/agency-dashboard.data?agency=${m.agencyId}`,
    ]) {
      expect(await redirectOf(await get(path, m.user.cookie)), path).toBe("/agency-application-status");
    }
    const status = await get("/agency-application-status", m.user.cookie);
    expect(status.status).toBe(200);
    const html = await status.text();
    expect(html).toContain(c.headline);
    expect(html).toContain(m.name);
  });

  it("every action, as a document and as .data, goes to the status page and changes nothing", async () => {
    const m = await managerOf(c);
    const before = await snapshot(m.agencyId);
    for (const fields of forms(m)) {
      for (const variant of ["", ".data"]) {
        const res = await post(`/agency-dashboard${variant}`, fields, m.user.cookie);
        expect(await redirectOf(res), `${fields.intent}${variant}`).toBe("/agency-application-status");
      }
    }
    expect(await snapshot(m.agencyId)).toEqual(before);
  });

  it("the module refuses the actor too (403), whoever called it", async () => {
    const m = await managerOf(c);
    const actor = actorFor(m.user, { approvalStatus: c.account === "pending" ? "pending" : c.account === "rejected" ? "rejected" : "approved" });
    const error = await agencyDashboardAction(
      actor,
      { intent: "create_token", agencyId: m.agencyId },
      new Request("https://shortbeat.test/agency-dashboard"),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(403);
    expect(await count("SELECT count(*) AS n FROM agency_signup_tokens WHERE agency_id = ?", m.agencyId)).toBe(1);
  });
});

describe("an approved account managing an approved, active agency", () => {
  it("gets the page, its .data and the actions; the status page sends them to the dashboard", async () => {
    const m = await managerOf({ account: "creator", approval: "approved", status: "active" });
    const page = await get("/agency-dashboard", m.user.cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(m.name);
    expect((await get("/agency-dashboard.data", m.user.cookie)).status).toBe(200);
    expect(await redirectOf(await get("/agency-application-status", m.user.cookie))).toBe("/agency-dashboard");
    const res = await post("/agency-dashboard.data", { intent: "create_token", agencyId: m.agencyId }, m.user.cookie);
    expect(res.status).toBe(202);
    expect(await redirectOf(res)).toMatch(/^\/agency-dashboard/);
    expect(await count("SELECT count(*) AS n FROM agency_signup_tokens WHERE agency_id = ?", m.agencyId)).toBe(2);
  });

  it("loses the dashboard as soon as their account is set back to pending", async () => {
    const m = await managerOf({ account: "creator", approval: "approved", status: "active" });
    expect((await get("/agency-dashboard", m.user.cookie)).status).toBe(200);
    await env.DB.prepare("UPDATE profiles SET approval_status = 'pending' WHERE user_id = ?").bind(m.user.id).run();
    expect(await redirectOf(await get("/agency-dashboard", m.user.cookie))).toBe("/agency-application-status");
  });
});
