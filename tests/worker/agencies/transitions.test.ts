// Agency state changes happen once, however many requests race for them (issue 10, item 5): one
// pending application per applicant (a partial unique index), approve/reject/activate/deactivate
// as guarded updates whose row count decides whether the e-mail, audit row and notifications
// follow, and the managers' own transitions (revoke, add, remove: never the last one).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "~/lib/errors";
import {
  agencyDashboard,
  agencyDashboardAction,
  applyForAgency,
  listAgenciesForAdmin,
  reviewAgency,
  setAgencyStatus,
} from "~/modules/agencies/agencies.server";
import { actorFor } from "../../factories/actors";
import { createAgencyWithCoManager, createUser, userBeforeAll } from "../../factories/users";
import { count, get, one, post, redirectOf } from "../admin-agency-helpers";

// The first request compiles the whole app inside workerd: do it here, not in a timed test.
beforeAll(async () => {
  await (await get("/terms-of-service")).arrayBuffer();
}, 180_000);

let n = 0;
const unique = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

async function makeAgency(opts: { ownerId?: string | null; approval?: "pending" | "approved" | "rejected"; managerIds?: string[] }) {
  const id = crypto.randomUUID();
  const slug = unique("race");
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO agencies (id, name, slug, contact_email, status, approval_status, created_by, user_id)
       VALUES (?, ?, ?, 'race@example.com', 'active', ?, ?, ?)`,
    ).bind(id, `Agency ${slug}`, slug, opts.approval ?? "approved", opts.ownerId ?? null, opts.ownerId ?? null),
    ...(opts.managerIds ?? []).map((m) =>
      env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, created_by) VALUES (?, ?, ?, ?)").bind(crypto.randomUUID(), id, m, m),
    ),
  ]);
  return { id, slug, name: `Agency ${slug}` };
}

const auditCount = (event: string, agencyId: string) =>
  count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = ? AND json_extract(details, '$.agency_id') = ?", event, agencyId);

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("one pending application per applicant", () => {
  it("holds when the same user applies many times at once", async () => {
    const user = await createUser("creator");
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post("/agency-application-signup.data", { agencyName: `Racer ${i}`, slug: unique(`racer${i}`), contactEmail: "r@example.com" }, user.cookie),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 409).length, String(statuses)).toBe(5);
    expect(await count("SELECT count(*) AS n FROM agencies WHERE user_id = ? AND approval_status = 'pending'", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE user_id = ?", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_application' AND user_id = ?", user.id)).toBe(1);
  });

  it("is enforced by the database itself, while other states may repeat", async () => {
    const user = await createUser("creator");
    await makeAgency({ ownerId: user.id, approval: "rejected" });
    await makeAgency({ ownerId: user.id, approval: "rejected" });
    await makeAgency({ ownerId: user.id, approval: "pending" });
    await expect(makeAgency({ ownerId: user.id, approval: "pending" })).rejects.toThrow(/UNIQUE/);
    // The module's answer to a race it lost is the same as to a second application.
    const error = await refusal(
      applyForAgency(
        actorFor(user),
        { agencyName: "Late", slug: unique("late"), contactEmail: "l@example.com", description: "" },
        new Request("https://shortbeat.test/"),
      ),
    );
    expect(error.status).toBe(409);
    expect(error.title).toBe("Failed to create agency");
  });
});

describe("the admin's decisions happen once", () => {
  const admin = userBeforeAll("admin");

  it("ten parallel approvals: one approval, one e-mail, one audit row, one notification per manager", async () => {
    const applicant = await createUser("pending");
    const agency = await makeAgency({ ownerId: applicant.id, approval: "pending", managerIds: [applicant.id] });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post("/admin/agencies.data", { intent: "approve", agencyId: agency.id, confirm: "yes" }, admin.cookie)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 409).length, String(statuses)).toBe(9);
    expect(await one("SELECT approval_status FROM agencies WHERE id = ?", agency.id)).toEqual({ approval_status: "approved" });
    expect(await auditCount("agency_approved", agency.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE kind = 'agency_approved' AND subject LIKE ?", `${agency.name} %`)).toBe(1);
    expect(
      await count(
        "SELECT count(*) AS n FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ? AND n.title = ?",
        applicant.id,
        `${agency.name} is approved`,
      ),
    ).toBe(1);
    // The applicant's pending account was approved with it, once.
    expect(await one("SELECT approval_status FROM profiles WHERE user_id = ?", applicant.id)).toEqual({
      approval_status: "approved",
    });
    expect(
      await count(
        "SELECT count(*) AS n FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ? AND n.kind = 'account_approved'",
        applicant.id,
      ),
    ).toBe(1);
  });

  it("parallel rejections: one rejection, one e-mail, one audit row; an approved agency cannot be rejected", async () => {
    const applicant = await createUser("creator");
    const agency = await makeAgency({ ownerId: applicant.id, approval: "pending", managerIds: [applicant.id] });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        post("/admin/agencies.data", { intent: "reject", agencyId: agency.id, confirm: "yes", reason: "Not yet." }, admin.cookie),
      ),
    );
    expect(results.filter((r) => r.status === 409).length).toBe(5);
    expect(await auditCount("agency_rejected", agency.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE kind = 'agency_rejected' AND body_text LIKE ?", `%${agency.name}%`)).toBe(1);

    const approved = await makeAgency({ approval: "approved" });
    const late = await post("/admin/agencies.data", { intent: "reject", agencyId: approved.id, confirm: "yes", reason: "Too late." }, admin.cookie);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("is already approved.");
    expect(await one("SELECT approval_status, rejection_reason FROM agencies WHERE id = ?", approved.id)).toEqual({
      approval_status: "approved",
      rejection_reason: null,
    });
  });

  it("parallel deactivations: one change, one audit row; the module refuses a non-admin", async () => {
    const agency = await makeAgency({ approval: "approved" });
    const request = new Request("https://shortbeat.test/admin/agencies");
    const adminActor = actorFor(admin, { isAdmin: true });
    const settled = await Promise.allSettled(Array.from({ length: 8 }, () => setAgencyStatus(adminActor, agency.id, "inactive", request)));
    expect(settled.filter((s) => s.status === "fulfilled").length).toBe(1);
    for (const s of settled) if (s.status === "rejected") expect((s.reason as DomainError).status).toBe(409);
    expect(await auditCount("agency_deactivated", agency.id)).toBe(1);

    const manager = await createUser("agency");
    for (const call of [
      setAgencyStatus(actorFor(manager), agency.id, "active", request),
      reviewAgency(actorFor(manager), agency.id, { approve: true }, request),
      listAgenciesForAdmin(actorFor(manager), "all", 1),
    ]) {
      expect((await refusal(call)).status).toBe(403);
    }
    expect(await one("SELECT status FROM agencies WHERE id = ?", agency.id)).toEqual({ status: "inactive" });
  });
});

describe("a manager's transitions happen once", () => {
  it("parallel revocations of one token: one revocation, one audit row", async () => {
    const manager = await createUser("agency");
    const tokenId = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO agency_signup_tokens (id, agency_id, token, created_by) VALUES (?, ?, ?, ?)")
      .bind(tokenId, manager.agencyId, unique("tok"), manager.id)
      .run();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post("/agency-dashboard.data", { agencyId: manager.agencyId!, intent: "revoke_token", id: tokenId }, manager.cookie)),
    );
    expect(results.filter((r) => r.status === 404).length).toBe(5);
    expect(await auditCount("agency_token_revoked", manager.agencyId!)).toBe(1);
  });

  it("inviting the same manager twice at once: one invitation, one e-mail, one audit row, no membership yet", async () => {
    const manager = await createUser("agency");
    const friend = await createUser("creator");
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        post("/agency-dashboard.data", { agencyId: manager.agencyId!, intent: "add_manager", email: friend.email }, manager.cookie),
      ),
    );
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(await count("SELECT count(*) AS n FROM agency_manager_invitations WHERE agency_id = ? AND email = ?", manager.agencyId, friend.email)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'agency_manager_invitation'", friend.email)).toBe(1);
    expect(await auditCount("agency_manager_invited", manager.agencyId!)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ? AND user_id = ?", manager.agencyId, friend.id)).toBe(0);
  });

  it("two managers removing each other at once: the agency keeps one", async () => {
    const { owner: a, coManager: b } = await createAgencyWithCoManager();
    const results = await Promise.all([
      post("/agency-dashboard.data", { agencyId: a.agencyId!, intent: "remove_manager", id: b.id }, a.cookie),
      post("/agency-dashboard.data", { agencyId: a.agencyId!, intent: "remove_manager", id: a.id }, b.cookie),
    ]);
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ?", a.agencyId)).toBeGreaterThanOrEqual(1);
    const removed = await auditCount("agency_manager_removed", a.agencyId!);
    expect(removed).toBe(2 - (await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ?", a.agencyId)));
    expect(results.some((r) => r.status !== 409 && r.status !== 403)).toBe(true);
  });

  it("removing the owner also ends their ownership", async () => {
    const { owner, coManager: other } = await createAgencyWithCoManager();
    const message = await agencyDashboardAction(
      actorFor(other),
      { intent: "remove_manager", agencyId: owner.agencyId!, id: owner.id },
      new Request("https://shortbeat.test/agency-dashboard"),
    );
    expect(message).toBe("Manager removed.");
    expect(await one("SELECT user_id FROM agencies WHERE id = ?", owner.agencyId)).toEqual({ user_id: null });
    const after = await post("/agency-dashboard.data", { agencyId: owner.agencyId!, intent: "create_token" }, owner.cookie);
    expect(await redirectOf(after)).toBe("/agency-application-signup");
    expect(await count("SELECT count(*) AS n FROM agency_signup_tokens WHERE agency_id = ?", owner.agencyId)).toBe(0);
  });
});

describe("the module authorizes, not the route", () => {
  it("refuses another agency's manager with 403, audit-logged, and changes nothing", async () => {
    const mine = await createUser("agency");
    const theirs = await createUser("agency");
    const request = new Request("https://shortbeat.test/agency-dashboard");
    const error = await refusal(agencyDashboardAction(actorFor(mine), { intent: "create_token", agencyId: theirs.agencyId! }, request));
    expect(error.status).toBe(403);
    expect(error.title).toBe("Access Denied");
    expect(error.message).toBe("You can only manage your own agency.");
    expect(await count("SELECT count(*) AS n FROM agency_signup_tokens WHERE agency_id = ?", theirs.agencyId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_access_denied' AND user_id = ?", mine.id)).toBe(1);
    // Their dashboard is not found for me, the same as an agency that does not exist.
    expect((await refusal(agencyDashboard(actorFor(mine), { agencyId: theirs.agencyId!, rosterPage: 1 }))).status).toBe(404);
    expect((await refusal(agencyDashboard(actorFor(mine), { agencyId: crypto.randomUUID(), rosterPage: 1 }))).status).toBe(404);
    // An admin acts on every agency that exists, and on none that does not.
    const admin = await createUser("admin");
    const adminActor = actorFor(admin, { isAdmin: true });
    expect(await agencyDashboardAction(adminActor, { intent: "create_token", agencyId: theirs.agencyId! }, request)).toBe("Signup token created.");
    expect((await refusal(agencyDashboardAction(adminActor, { intent: "create_token", agencyId: crypto.randomUUID() }, request))).status).toBe(403);
  });

  it("a banned manager may not act even through the module", async () => {
    const manager = await createUser("agency");
    const error = await refusal(
      agencyDashboardAction(
        actorFor(manager, { isBanned: true }),
        { intent: "create_token", agencyId: manager.agencyId! },
        new Request("https://shortbeat.test/"),
      ),
    );
    expect(error.status).toBe(403);
  });
});

describe("the dashboard's page", () => {
  it("is one camelCase view: roster with channel statistics, tokens with their uses, managers with the owner", async () => {
    const manager = await createUser("agency");
    const creator = await createUser("creator");
    const tokenId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO agency_signup_tokens (id, agency_id, token, created_by) VALUES (?, ?, ?, ?)").bind(
        tokenId,
        manager.agencyId,
        unique("t"),
        manager.id,
      ),
      env.DB.prepare("UPDATE profiles SET agency_id = ?, agency_signup_token_id = ? WHERE user_id = ?").bind(manager.agencyId, tokenId, creator.id),
      env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, view_count) VALUES (?, ?, ?, 'A', 1200)").bind(
        crypto.randomUUID(),
        creator.id,
        unique("UC"),
      ),
      env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, view_count) VALUES (?, ?, ?, 'B', 300)").bind(
        crypto.randomUUID(),
        creator.id,
        unique("UC"),
      ),
      env.DB.prepare("INSERT INTO manual_channel_submissions (id, user_id, creator_id, channel_name, status) VALUES (?, ?, 'X', 'Manual', 'verified')").bind(
        crypto.randomUUID(),
        creator.id,
      ),
      env.DB.prepare("INSERT INTO manual_channel_submissions (id, user_id, creator_id, channel_name, status) VALUES (?, ?, 'X', 'Pending', 'pending')").bind(
        crypto.randomUUID(),
        creator.id,
      ),
    ]);
    const page = await agencyDashboard(actorFor(manager), { agencyId: null, rosterPage: 1 });
    if (page.kind !== "dashboard") throw new Error(page.kind);
    expect(page.agency.id).toBe(manager.agencyId);
    expect(page.roster).toEqual([
      expect.objectContaining({
        userId: creator.id,
        email: creator.email,
        channels: 3,
        views: 1500,
        viaToken: true,
        isBanned: false,
      }),
    ]);
    expect(page.rosterTotal).toBe(1);
    expect(page.tokens).toEqual([expect.objectContaining({ id: tokenId, uses: 1, createdByEmail: manager.email, revokedAt: null })]);
    expect(page.managers).toEqual([expect.objectContaining({ userId: manager.id, email: manager.email, isOwner: true })]);
  });
});
