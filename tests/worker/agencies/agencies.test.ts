import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { AGENCY_ACTIONS } from "~/modules/admin/schema";
import { agencyStateOf } from "~/modules/agencies/agencies.server";
import { ALL_KINDS, createUser, type TestUser, type UserKind, userBeforeAll } from "../../factories/users";
import { fetchApp, okText } from "../helpers";
import { PNG_1X1, count, freshIp, get, one, post, redirectOf, signUpFields } from "../admin-agency-helpers";
import { present } from "../../helpers/present";

// The first request compiles the whole app inside workerd: do it here, not in a timed test.
beforeAll(async () => {
  await (await get("/terms-of-service")).arrayBuffer();
}, 180_000);

let n = 0;
const unique = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

async function makeAgency(opts: {
  ownerId?: string | null;
  approval?: "pending" | "approved" | "rejected";
  status?: "active" | "inactive";
  managerIds?: string[];
  reason?: string;
}) {
  const id = crypto.randomUUID();
  const slug = unique("ag");
  const statements: D1PreparedStatement[] = [
    env.DB.prepare(
      `INSERT INTO agencies (id, name, slug, contact_email, status, approval_status, rejection_reason, created_by, user_id)
       VALUES (?, ?, ?, 'contact@example.com', ?, ?, ?, ?, ?)`,
    ).bind(id, `Agency ${slug}`, slug, opts.status ?? "active", opts.approval ?? "approved", opts.reason ?? null, opts.ownerId ?? null, opts.ownerId ?? null),
    ...(opts.managerIds ?? []).map((m) =>
      env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, created_by) VALUES (?, ?, ?, ?)").bind(crypto.randomUUID(), id, m, m),
    ),
  ];
  await env.DB.batch(statements);
  return { id, slug, name: `Agency ${slug}` };
}

describe("derived agency state (spec section 4)", () => {
  it("is none without any agency, and the dashboard sends such a user to the application form", async () => {
    const user = await createUser("creator");
    expect(await agencyStateOf({ id: user.id, isAdmin: false })).toEqual({ state: "none", activeAgencyIds: [] });
    expect(await redirectOf(await get("/agency-dashboard", user.cookie))).toBe("/agency-application-signup");
    expect(await redirectOf(await get("/agency-application-status", user.cookie))).toBe("/agency-application-signup");
  });

  it("is pending for an owned pending application → status page shows it", async () => {
    const user = await createUser("creator");
    const agency = await makeAgency({ ownerId: user.id, approval: "pending", managerIds: [user.id] });
    expect((await agencyStateOf({ id: user.id, isAdmin: false })).state).toBe("pending");
    expect(await redirectOf(await get("/agency-dashboard", user.cookie))).toBe("/agency-application-status");
    const html = await (await get("/agency-application-status", user.cookie)).text();
    expect(html).toContain("Your application is under review");
    expect(html).toContain(agency.name);
  });

  it("is rejected when that is all there is → status page shows the reason", async () => {
    const user = await createUser("creator");
    await makeAgency({ ownerId: user.id, approval: "rejected", reason: "Not enough detail about your roster." });
    expect((await agencyStateOf({ id: user.id, isAdmin: false })).state).toBe("rejected");
    expect(await redirectOf(await get("/agency-dashboard", user.cookie))).toBe("/agency-application-status");
    const html = await (await get("/agency-application-status", user.cookie)).text();
    expect(html).toContain("Not enough detail about your roster.");
    expect(html).toContain("Apply again");
  });

  it("prefers approved over pending over rejected", async () => {
    const user = await createUser("creator");
    await makeAgency({ ownerId: user.id, approval: "rejected" });
    await makeAgency({ ownerId: user.id, approval: "pending" });
    expect((await agencyStateOf({ id: user.id, isAdmin: false })).state).toBe("pending");
    const approved = await makeAgency({ ownerId: user.id, approval: "approved" });
    expect(await agencyStateOf({ id: user.id, isAdmin: false })).toEqual({ state: "approved", activeAgencyIds: [approved.id] });
  });

  it("is approved through membership alone (agency_users), and the dashboard opens", async () => {
    const user = await createUser("creator");
    const agency = await makeAgency({ approval: "approved", managerIds: [user.id] });
    expect(await agencyStateOf({ id: user.id, isAdmin: false })).toEqual({ state: "approved", activeAgencyIds: [agency.id] });
    const res = await get("/agency-dashboard", user.cookie);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(agency.name);
  });

  it("needs status 'active' too: an approved but inactive agency goes to the status page", async () => {
    const user = await createUser("creator");
    await makeAgency({ ownerId: user.id, approval: "approved", status: "inactive", managerIds: [user.id] });
    expect(await agencyStateOf({ id: user.id, isAdmin: false })).toEqual({ state: "approved", activeAgencyIds: [] });
    expect(await redirectOf(await get("/agency-dashboard", user.cookie))).toBe("/agency-application-status");
    expect(await (await get("/agency-application-status", user.cookie)).text()).toContain("Your agency is inactive");
  });

  it("is approved for an admin, who sees every agency with a switcher", async () => {
    const admin = await createUser("admin");
    expect((await agencyStateOf({ id: admin.id, isAdmin: true })).state).toBe("approved");
    const pending = await makeAgency({ approval: "pending" });
    const html = await (await get(`/agency-dashboard?agency=${pending.id}`, admin.cookie)).text();
    expect(html).toContain(pending.name);
    expect(html).toContain('id="agency-switcher"');
  });

  it("sends anonymous and banned users to sign in", async () => {
    expect(await redirectOf(await get("/agency-dashboard"))).toMatch(/^\/auth/);
    const banned = await createUser("banned");
    expect(await redirectOf(await get("/agency-dashboard", banned.cookie))).toMatch(/^\/auth/);
  });
});

describe("agency applications", () => {
  it("a signed-in user applies and becomes the first manager; the application is audit-logged", async () => {
    const user = await createUser("creator");
    const slug = unique("apply");
    const res = await post(
      "/agency-application-signup",
      { agencyName: "Bright Lights", slug, contactEmail: "hi@bright.test", description: "We <b>manage</b> creators" },
      user.cookie,
    );
    expect(res.headers.get("Location")).toBe("/agency-application-status");
    const agency = await one<{ id: string; approval_status: string; status: string; user_id: string; description: string }>(
      "SELECT id, approval_status, status, user_id, description FROM agencies WHERE slug = ?",
      slug,
    );
    expect(agency).toMatchObject({
      approval_status: "pending",
      status: "active",
      user_id: user.id,
      description: "We bmanage/b creators",
    });
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ? AND user_id = ? AND role = 'manager'", agency!.id, user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_application' AND user_id = ?", user.id)).toBe(1);
    // A second application while one is pending is refused.
    const again = await post("/agency-application-signup", { agencyName: "Again", slug: unique("again"), contactEmail: "hi@bright.test" }, user.cookie);
    // (The page's loader then sends the pending applicant to the status page.)
    expect(await redirectOf(again)).toBe("/agency-application-status");
    expect(await count("SELECT count(*) AS n FROM agencies WHERE user_id = ?", user.id)).toBe(1);
    const againData = await post(
      "/agency-application-signup.data",
      { agencyName: "Again", slug: unique("again"), contactEmail: "hi@bright.test" },
      user.cookie,
    );
    expect(againData.status).toBe(409);
    expect(await againData.text()).toContain("You already have an agency application.");
    expect(await redirectOf(await get("/agency-application-signup", user.cookie))).toBe("/agency-application-status");
  });

  it("/agency/signup is the same screen", async () => {
    const html = await okText(get("/agency/signup"));
    expect(html).toContain("Apply as an agency");
    expect(html).toContain('name="slug"');
  });

  it("keeps slugs unique and URL-safe: checked live and enforced in the action", async () => {
    const owner = await createUser("creator");
    const taken = await makeAgency({ ownerId: owner.id, approval: "pending" });
    const live = await (await get(`/agency-application-signup.data?check=${taken.slug}`)).text();
    expect(live).toContain("This slug is already taken. Please choose another.");
    const free = await (await get(`/agency-application-signup.data?check=${unique("free")}`)).text();
    expect(free).toContain("is available.");
    const reserved = await (await get(`/agency-application-signup.data?check=admin`)).text();
    expect(reserved).toContain("This slug is reserved.");

    const user = await createUser("creator");
    const dup = await post("/agency-application-signup", { agencyName: "Copycat", slug: taken.slug, contactEmail: "c@example.com" }, user.cookie);
    expect(dup.status).toBe(409);
    expect(await dup.text()).toContain("This slug is already taken.");
    for (const bad of ["Has Spaces", "-edge-", "a", "x".repeat(41), "dev", "ünï"]) {
      const res = await post("/agency-application-signup", { agencyName: "Bad slug", slug: bad, contactEmail: "c@example.com" }, user.cookie);
      expect(res.status, bad).toBe(400);
    }
    expect(await count("SELECT count(*) AS n FROM agencies WHERE user_id = ?", user.id)).toBe(0);
  });

  it("a signed-out visitor applies and signs up in the same form", async () => {
    const email = `${unique("applicant")}@example.com`;
    const slug = unique("newco");
    const res = await post("/agency-application-signup", {
      agencyName: "NewCo Talent",
      slug,
      contactEmail: "team@newco.test",
      description: "",
      fullName: "Nia Newco",
      email,
      password: "Sup3r$ecret!",
      confirmPassword: "Sup3r$ecret!",
      acceptTerms: "on",
    });
    expect(res.headers.get("Location")).toBe("/agency-application-signup?submitted=1");
    const user = await one<{ id: string; email_verified_at: string | null }>("SELECT id, email_verified_at FROM users WHERE email = ?", email);
    expect(user?.email_verified_at).toBeNull();
    expect(await one("SELECT approval_status FROM profiles WHERE user_id = ?", user!.id)).toEqual({ approval_status: "pending" });
    const agency = await one<{ id: string; user_id: string; approval_status: string }>(
      "SELECT id, user_id, approval_status FROM agencies WHERE slug = ?",
      slug,
    );
    expect(agency).toMatchObject({ user_id: user!.id, approval_status: "pending" });
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ? AND user_id = ?", agency!.id, user!.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'email_verification'", email)).toBe(1);

    // The same e-mail again: the same answer, nothing new written, the owner is told by e-mail.
    const again = await post("/agency-application-signup", {
      agencyName: "Second Try",
      slug: unique("second"),
      contactEmail: "team@newco.test",
      fullName: "Someone Else",
      email,
      password: "Sup3r$ecret!",
      confirmPassword: "Sup3r$ecret!",
      acceptTerms: "on",
    });
    expect(again.headers.get("Location")).toBe("/agency-application-signup?submitted=1");
    expect(await count("SELECT count(*) AS n FROM agencies WHERE name = 'Second Try'")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'signup_existing'", email)).toBe(1);
  });

  it("validates the account part when signed out", async () => {
    const res = await post("/agency-application-signup", {
      agencyName: "Weak Password Co",
      slug: unique("weak"),
      contactEmail: "a@b.test",
      fullName: "W",
      email: "weak@example.com",
      password: "short",
      confirmPassword: "short",
    });
    expect(res.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM users WHERE email = 'weak@example.com'")).toBe(0);
  });
});

describe("admin review of agencies", () => {
  const admin = userBeforeAll("admin");

  it("approves an application: it goes live, the applicant's pending account is approved, managers are notified", async () => {
    const applicant = await createUser("pending");
    const agency = await makeAgency({ ownerId: applicant.id, approval: "pending", managerIds: [applicant.id] });
    expect((await get(`/${agency.slug}/signup`)).status).toBe(404);
    const res = await post(`/admin/agencies?agency=${agency.id}&confirm=approve`, { intent: "approve", agencyId: agency.id, confirm: "yes" }, admin.cookie);
    expect(res.headers.get("Location")).toBe("/admin/agencies");
    expect(await one("SELECT approval_status, status FROM agencies WHERE id = ?", agency.id)).toEqual({
      approval_status: "approved",
      status: "active",
    });
    expect(await one("SELECT approval_status FROM profiles WHERE user_id = ?", applicant.id)).toEqual({
      approval_status: "approved",
    });
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_approved' AND user_id = ?", admin.id)).toBeGreaterThanOrEqual(
      1,
    );
    expect(await count("SELECT count(*) AS n FROM user_notifications WHERE user_id = ?", applicant.id)).toBeGreaterThanOrEqual(1);
    const page = await get(`/${agency.slug}/signup`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Join ${agency.name}`);
    expect((await get("/agency-dashboard", applicant.cookie)).status).toBe(200);
  });

  it("rejects with a reason, and deactivates and reactivates an agency", async () => {
    const applicant = await createUser("creator");
    const pending = await makeAgency({ ownerId: applicant.id, approval: "pending", managerIds: [applicant.id] });
    const noReason = await post("/admin/agencies", { intent: "reject", agencyId: pending.id, confirm: "yes", reason: "" }, admin.cookie);
    expect(noReason.status).toBe(400);
    await post("/admin/agencies", { intent: "reject", agencyId: pending.id, confirm: "yes", reason: "Please add your website." }, admin.cookie);
    expect(await one("SELECT approval_status, rejection_reason FROM agencies WHERE id = ?", pending.id)).toEqual({
      approval_status: "rejected",
      rejection_reason: "Please add your website.",
    });
    expect(await (await get("/agency-application-status", applicant.cookie)).text()).toContain("Please add your website.");

    const live = await makeAgency({ approval: "approved" });
    await post("/admin/agencies", { intent: "deactivate", agencyId: live.id, confirm: "yes" }, admin.cookie);
    expect((await one("SELECT status FROM agencies WHERE id = ?", live.id))?.status).toBe("inactive");
    expect((await get(`/${live.slug}/signup`)).status).toBe(404);
    expect((await get(`/${live.slug}/music-signup`)).status).toBe(404);
    await post("/admin/agencies", { intent: "activate", agencyId: live.id, confirm: "yes" }, admin.cookie);
    expect((await one("SELECT status FROM agencies WHERE id = ?", live.id))?.status).toBe("active");
    expect((await get(`/${live.slug}/signup`)).status).toBe(200);
  });

  const others: (UserKind | "anonymous")[] = ["anonymous", ...ALL_KINDS.filter((k) => k !== "admin")];
  it.each(others)("%s cannot review agencies", async (kind) => {
    const actor = kind === "anonymous" ? null : await createUser(kind);
    const agency = await makeAgency({ approval: "pending" });
    expect(await redirectOf(await get("/admin/agencies", actor?.cookie))).toMatch(/^\/(auth|dashboard)/);
    for (const intent of AGENCY_ACTIONS) {
      const res = await post("/admin/agencies", { intent, agencyId: agency.id, confirm: "yes", reason: "x" }, actor?.cookie);
      expect(await redirectOf(res), `${kind} ${intent}`).toMatch(/^\/(auth|dashboard)/);
    }
    expect(await one("SELECT approval_status, status FROM agencies WHERE id = ?", agency.id)).toEqual({
      approval_status: "pending",
      status: "active",
    });
  });
});

describe("agency dashboard: a manager acts on their own agency only", () => {
  let mine: TestUser;
  let theirs: TestUser;
  beforeAll(async () => {
    mine = await createUser("agency");
    theirs = await createUser("agency");
  });

  it("shows the signup links, tokens, managers and roster of their agency", async () => {
    const creator = await createUser("creator");
    await env.DB.prepare("UPDATE profiles SET agency_id = ? WHERE user_id = ?").bind(mine.agencyId, creator.id).run();
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, view_count) VALUES (?, ?, ?, 'Chan', 5000)")
      .bind(crypto.randomUUID(), creator.id, unique("UC"))
      .run();
    const slug = (await one<{ slug: string }>("SELECT slug FROM agencies WHERE id = ?", mine.agencyId))!.slug;
    const html = await (await get("/agency-dashboard", mine.cookie)).text();
    expect(html).toContain(`https://shortbeat.test/${slug}/signup`);
    expect(html).toContain(`https://shortbeat.test/${slug}/music-signup`);
    expect(html).toContain(creator.email);
    expect(html).toContain("5,000");
    expect(html).toContain(mine.email);
  });

  it("cannot see another agency", async () => {
    const res = await get(`/agency-dashboard?agency=${theirs.agencyId}`, mine.cookie);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(theirs.email);
  });

  it("cannot change another agency: every action with its id is refused and audit-logged", async () => {
    const theirToken = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO agency_signup_tokens (id, agency_id, token, created_by) VALUES (?, ?, ?, ?)")
      .bind(theirToken, theirs.agencyId, unique("tok"), theirs.id)
      .run();
    const before = await one("SELECT name, contact_email, logo_url FROM agencies WHERE id = ?", theirs.agencyId);
    const attempts: Record<string, string>[] = [
      { intent: "update_profile", name: "Hijacked", contactEmail: "evil@example.com", description: "" },
      { intent: "create_token" },
      { intent: "revoke_token", id: theirToken },
      { intent: "add_manager", email: mine.email },
      { intent: "remove_manager", id: theirs.id },
    ];
    for (const fields of attempts) {
      const res = await post("/agency-dashboard", { agencyId: theirs.agencyId!, ...fields }, mine.cookie);
      expect(res.status, fields.intent).toBe(403);
    }
    // Their own agency id with another agency's token is no way round it either.
    const cross = await post("/agency-dashboard", { agencyId: mine.agencyId!, intent: "revoke_token", id: theirToken }, mine.cookie);
    expect(cross.status).toBe(404);

    const logo = new FormData();
    logo.set("agencyId", theirs.agencyId!);
    logo.set("intent", "upload_logo");
    logo.set("logo", new File([PNG_1X1], "logo.png", { type: "image/png" }));
    const upload = await fetchApp("/agency-dashboard", {
      method: "POST",
      headers: { Origin: "https://shortbeat.test", Cookie: mine.cookie, "CF-Connecting-IP": freshIp() },
      body: logo,
    });
    expect(upload.status).toBe(403);

    expect(await one("SELECT name, contact_email, logo_url FROM agencies WHERE id = ?", theirs.agencyId)).toEqual(before);
    expect(await count("SELECT count(*) AS n FROM agency_signup_tokens WHERE agency_id = ?", theirs.agencyId)).toBe(1);
    expect(await one("SELECT revoked_at FROM agency_signup_tokens WHERE id = ?", theirToken)).toEqual({ revoked_at: null });
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ?", theirs.agencyId)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_access_denied' AND user_id = ?", mine.id)).toBe(6);
  });

  it("is refused for every kind that manages no agency", async () => {
    for (const kind of ["pending", "rejected", "creator", "clipper", "partner"] as const) {
      const user = await createUser(kind);
      const res = await post("/agency-dashboard", { agencyId: mine.agencyId!, intent: "create_token" }, user.cookie);
      expect(await redirectOf(res), kind).toBe("/agency-application-signup");
    }
    const banned = await createUser("banned");
    expect(await redirectOf(await post("/agency-dashboard", { agencyId: mine.agencyId!, intent: "create_token" }, banned.cookie))).toMatch(/^\/auth/);
    expect(await redirectOf(await post("/agency-dashboard", { agencyId: mine.agencyId!, intent: "create_token" }))).toMatch(/^\/auth/);
    expect(await count("SELECT count(*) AS n FROM agency_signup_tokens WHERE agency_id = ?", mine.agencyId)).toBe(0);
  });

  it("updates the profile and uploads a logo checked by its bytes", async () => {
    const ok = await post(
      "/agency-dashboard",
      {
        agencyId: mine.agencyId!,
        intent: "update_profile",
        name: "Mine Renamed",
        contactEmail: "new@mine.test",
        description: "Hi",
      },
      mine.cookie,
    );
    expect(ok.status).toBe(302);
    expect(await one("SELECT name, contact_email, description FROM agencies WHERE id = ?", mine.agencyId)).toEqual({
      name: "Mine Renamed",
      contact_email: "new@mine.test",
      description: "Hi",
    });

    const upload = async (file: File) => {
      const body = new FormData();
      body.set("agencyId", mine.agencyId!);
      body.set("intent", "upload_logo");
      body.set("logo", file);
      return fetchApp("/agency-dashboard", {
        method: "POST",
        headers: { Origin: "https://shortbeat.test", Cookie: mine.cookie, "CF-Connecting-IP": freshIp() },
        body,
      });
    };
    const good = await upload(new File([PNG_1X1], "logo.png", { type: "image/png" }));
    expect(good.status).toBe(302);
    const url = (await one<{ logo_url: string }>("SELECT logo_url FROM agencies WHERE id = ?", mine.agencyId))!.logo_url;
    expect(url).toMatch(new RegExp(`^/media/avatars/agency-logos/${mine.agencyId}/[0-9a-f-]+\\.png$`));
    const stored = await env.AVATARS.get(url.replace("/media/avatars/", ""));
    expect(stored).not.toBeNull();

    const fake = await upload(new File([new TextEncoder().encode("<svg onload=alert(1)>")], "logo.png", { type: "image/png" }));
    expect(fake.status).toBe(400);
    const big = new Uint8Array(2 * 1024 * 1024 + 10);
    big.set(PNG_1X1);
    const tooBig = await upload(new File([big], "big.png", { type: "image/png" }));
    expect([400, 413]).toContain(tooBig.status);
    expect((await one<{ logo_url: string }>("SELECT logo_url FROM agencies WHERE id = ?", mine.agencyId))!.logo_url).toBe(url);
  });

  it("adds a manager by invitation, never removes the last one", async () => {
    const solo = await createUser("agency");
    const friend = await createUser("creator");
    const last = await post("/agency-dashboard", { agencyId: solo.agencyId!, intent: "remove_manager", id: solo.id }, solo.cookie);
    expect(last.status).toBe(409);
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ?", solo.agencyId)).toBe(1);

    // The invitation (tests/worker/agencies/invitations.test.ts has the whole story), accepted.
    const add = await post("/agency-dashboard", { agencyId: solo.agencyId!, intent: "add_manager", email: friend.email }, solo.cookie);
    expect(add.status).toBe(302);
    expect(await count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ?", solo.agencyId)).toBe(1);
    const mail = await one<{ body_text: string }>("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'agency_manager_invitation'", friend.email);
    const token = present(/agency-invitation\?token=([a-z2-7]+)/.exec(mail!.body_text)?.[1], "the link's token in the mail");
    expect((await post("/agency-invitation", { token }, friend.cookie)).status).toBe(302);
    expect((await get("/agency-dashboard", friend.cookie)).status).toBe(200);

    const remove = await post("/agency-dashboard", { agencyId: solo.agencyId!, intent: "remove_manager", id: friend.id }, solo.cookie);
    expect(remove.status).toBe(302);
    expect(await redirectOf(await get("/agency-dashboard", friend.cookie))).toBe("/agency-application-signup");
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_manager_removed' AND target_user_id = ?", friend.id)).toBe(1);
  });
});

describe("signup links and tokens", () => {
  it("only an approved, active agency's slug resolves; anything else is the not-found page", async () => {
    const pending = await makeAgency({ approval: "pending" });
    const rejected = await makeAgency({ approval: "rejected" });
    const inactive = await makeAgency({ approval: "approved", status: "inactive" });
    for (const slug of [pending.slug, rejected.slug, inactive.slug, "no-such-agency"]) {
      const res = await get(`/${slug}/signup`);
      expect(res.status, slug).toBe(404);
      expect(await res.text()).toContain("Page not found");
      expect((await post(`/${slug}/signup`, signUpFields(`${unique("x")}@example.com`))).status).toBe(404);
    }
    const live = await makeAgency({ approval: "approved" });
    const html = await (await get(`/${live.slug}/signup`)).text();
    expect(html).toContain(`Join ${live.name}`);
  });

  it("a creator who signs up through the link joins the agency; a token attributes until it is revoked", async () => {
    const manager = await createUser("agency");
    const slug = (await one<{ slug: string }>("SELECT slug FROM agencies WHERE id = ?", manager.agencyId))!.slug;

    const created = await post("/agency-dashboard", { agencyId: manager.agencyId!, intent: "create_token" }, manager.cookie);
    expect(created.status).toBe(302);
    const token = (await one<{ id: string; token: string }>("SELECT id, token FROM agency_signup_tokens WHERE agency_id = ?", manager.agencyId))!;
    expect(token.token).toMatch(/^[a-z2-7]{32}$/);

    const viaLink = `${unique("link")}@example.com`;
    await post(`/${slug}/signup`, signUpFields(viaLink));
    expect(await one("SELECT p.agency_id, p.agency_signup_token_id FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?", viaLink)).toEqual({
      agency_id: manager.agencyId,
      agency_signup_token_id: null,
    });

    const viaToken = `${unique("token")}@example.com`;
    await post(`/auth?token=${token.token}`, signUpFields(viaToken, { agencyToken: token.token }));
    expect(await one("SELECT p.agency_id, p.agency_signup_token_id FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?", viaToken)).toEqual({
      agency_id: manager.agencyId,
      agency_signup_token_id: token.id,
    });
    const roster = await (await get("/agency-dashboard", manager.cookie)).text();
    expect(roster).toContain(viaLink);
    expect(roster).toContain(viaToken);

    const revoke = await post("/agency-dashboard", { agencyId: manager.agencyId!, intent: "revoke_token", id: token.id }, manager.cookie);
    expect(revoke.status).toBe(302);
    expect((await one<{ revoked_at: string | null }>("SELECT revoked_at FROM agency_signup_tokens WHERE id = ?", token.id))!.revoked_at).not.toBeNull();

    const afterRevoke = `${unique("revoked")}@example.com`;
    await post(`/auth?token=${token.token}`, signUpFields(afterRevoke, { agencyToken: token.token }));
    expect(await one("SELECT p.agency_id, p.agency_signup_token_id FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?", afterRevoke)).toEqual({
      agency_id: null,
      agency_signup_token_id: null,
    });
  });
});

describe("music partner sign-up", () => {
  const fields = (email: string) => ({
    fullName: "Mo Music",
    email,
    password: "Sup3r$ecret!",
    confirmPassword: "Sup3r$ecret!",
    artistName: "Mo & The Beats",
    catalogueUrl: "https://open.spotify.com/artist/mo",
    acceptTerms: "on",
  });

  it("creates a pending account flagged as music partner, and sends the verification e-mail", async () => {
    const email = `${unique("mo")}@example.com`;
    const res = await post("/music-signup", fields(email));
    expect(res.headers.get("Location")).toBe("/auth?created=1");
    const row = await one(
      "SELECT p.approval_status, p.is_music_partner, p.artist_name, p.catalogue_url, p.agency_id FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?",
      email,
    );
    expect(row).toEqual({
      approval_status: "pending",
      is_music_partner: 1,
      artist_name: "Mo & The Beats",
      catalogue_url: "https://open.spotify.com/artist/mo",
      agency_id: null,
    });
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'email_verification'", email)).toBe(1);
  });

  it("needs the music partner terms and the password rules", async () => {
    const email = `${unique("mo")}@example.com`;
    expect((await post("/music-signup", { ...fields(email), acceptTerms: "" })).status).toBe(400);
    expect((await post("/music-signup", { ...fields(email), password: "password", confirmPassword: "password" })).status).toBe(400);
    expect((await post("/music-signup", { ...fields(email), confirmPassword: "Different$1" })).status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM users WHERE email = ?", email)).toBe(0);
  });

  it("links the partner to an approved, active agency; any other slug is not found", async () => {
    const live = await makeAgency({ approval: "approved" });
    const email = `${unique("agencymo")}@example.com`;
    expect((await get(`/${live.slug}/music-signup`)).status).toBe(200);
    await post(`/${live.slug}/music-signup`, fields(email));
    expect(await one("SELECT p.agency_id, p.is_music_partner FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?", email)).toEqual({
      agency_id: live.id,
      is_music_partner: 1,
    });
    const pending = await makeAgency({ approval: "pending" });
    expect((await get(`/${pending.slug}/music-signup`)).status).toBe(404);
    expect((await post(`/${pending.slug}/music-signup`, fields(`${unique("no")}@example.com`))).status).toBe(404);
  });

  it("is rate-limited like sign-up: 15 per hour per address", async () => {
    const ip = "203.0.113.150";
    let last = 0;
    for (let i = 0; i < 16; i++) {
      // Invalid e-mails are refused before the limiter, so use real ones (these hash passwords: slow but honest).
      const res = await post("/music-signup", fields(`${unique("burst")}@example.com`), undefined, { "CF-Connecting-IP": ip });
      last = res.status;
      if (i < 15) expect(res.status, `attempt ${i + 1}`).toBe(302);
    }
    expect(last).toBe(429);
  });
});
