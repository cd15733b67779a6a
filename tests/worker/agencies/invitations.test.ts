// Adding an agency manager reveals nothing about accounts (issue 11, item 4): the same answer for
// an unknown, a banned, a pending and an approved address, no manager row until the invited person
// accepts. The invitation e-mail's link (from APP_ORIGIN) lets an existing, approved user with that
// verified e-mail accept once, signed in; parallel accepts make one manager.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MANAGER_INVITED, INVITATION_MESSAGES } from "~/modules/agencies/schema";
import { sha256Hex } from "~/platform/crypto.server";
import { createUser, type TestUser } from "../../factories/users";
import { toastTitle } from "../platform/actions";
import { count, get, one, post, redirectOf } from "../admin-agency-helpers";
import { present } from "../../helpers/present";

beforeAll(async () => {
  await (await get("/terms-of-service")).arrayBuffer();
}, 180_000);

let n = 0;
const fresh = (p: string) => `${p}-${Date.now().toString(36)}-${++n}@example.com`;

const invite = (manager: TestUser, email: string, variant: "" | ".data" = ".data") =>
  post(`/agency-dashboard${variant}`, { agencyId: manager.agencyId!, intent: "add_manager", email }, manager.cookie);

/** The token in the last invitation e-mail sent to `email`; checks the link is built from APP_ORIGIN. */
async function tokenMailedTo(email: string): Promise<string> {
  const mail = await one<{ body_text: string; subject: string }>(
    "SELECT body_text, subject FROM email_outbox WHERE to_email = ? AND kind = 'agency_manager_invitation' ORDER BY created_at DESC, rowid DESC LIMIT 1",
    email,
  );
  expect(mail, `no invitation e-mail to ${email}`).not.toBeNull();
  const match = /(\S+)\/agency-invitation\?token=([a-z2-7]+)/.exec(mail!.body_text);
  expect(match).not.toBeNull();
  expect(match![1]).toBe(new URL(env.APP_ORIGIN).origin);
  return present(match![2], "the invitation token");
}

const accept = (user: TestUser, token: string, variant: "" | ".data" = "") => post(`/agency-invitation${variant}`, { token }, user.cookie);
const managerRows = (agencyId: string, userId: string) => count("SELECT count(*) AS n FROM agency_users WHERE agency_id = ? AND user_id = ?", agencyId, userId);

describe("adding a manager answers the same whatever the e-mail", () => {
  it("unknown, banned, pending, rejected and approved addresses: same status, redirect and toast; no manager row", async () => {
    const manager = await createUser("agency");
    const banned = await createUser("banned");
    const pending = await createUser("pending");
    const rejected = await createUser("rejected");
    const approved = await createUser("creator");
    const answers: string[] = [];
    for (const email of [fresh("nobody"), banned.email, pending.email, rejected.email, approved.email, manager.email]) {
      for (const variant of ["", ".data"] as const) {
        // Different addresses each time for the document request, so both variants send one.
        const res = await invite(manager, email, variant);
        answers.push(`${variant} ${res.status} ${await redirectOf(res)} ${toastTitle(res)}`);
      }
    }
    const unique = [...new Set(answers)];
    expect(unique.length, unique.join("\n")).toBe(2);
    expect(unique.every((a) => a.endsWith(MANAGER_INVITED))).toBe(true);
    for (const u of [banned, pending, rejected, approved]) expect(await managerRows(manager.agencyId!, u.id)).toBe(0);
    // Every address waits as an invitation alike, the known ones too.
    expect(await count("SELECT count(*) AS n FROM agency_manager_invitations WHERE agency_id = ? AND accepted_at IS NULL", manager.agencyId)).toBe(6);
  });

  it("e-mails an invitation whose link comes from APP_ORIGIN; only the token's hash is stored", async () => {
    const manager = await createUser("agency");
    const email = fresh("invitee");
    await invite(manager, email, "");
    const token = await tokenMailedTo(email);
    const row = await one<{ token_hash: string; invited_by: string; accepted_at: string | null; expires_at: string }>(
      "SELECT token_hash, invited_by, accepted_at, expires_at FROM agency_manager_invitations WHERE agency_id = ? AND email = ?",
      manager.agencyId,
      email,
    );
    expect(row).toMatchObject({ token_hash: sha256Hex(token), invited_by: manager.id, accepted_at: null });
    expect(Date.parse(row!.expires_at)).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(await count("SELECT count(*) AS n FROM agency_manager_invitations WHERE token_hash = ?", token)).toBe(0);
  });

  it("parallel invitations of one address: one pending invitation, one e-mail, one audit row, the same answer", async () => {
    const manager = await createUser("agency");
    const email = fresh("double-click");
    const results = await Promise.all(Array.from({ length: 6 }, () => invite(manager, email)));
    expect(new Set(results.map((r) => `${r.status} ${toastTitle(r)}`))).toEqual(new Set([`202 ${MANAGER_INVITED}`]));
    expect(await count("SELECT count(*) AS n FROM agency_manager_invitations WHERE agency_id = ? AND email = ?", manager.agencyId, email)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", email)).toBe(1);
    expect(
      await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_manager_invited' AND json_extract(details, '$.email') = ?", email),
    ).toBe(1);
  });

  it("an agency sends at most 20 invitations an hour, exactly, also in parallel", async () => {
    const manager = await createUser("agency");
    const results = await Promise.all(Array.from({ length: 26 }, (_, i) => invite(manager, fresh(`bulk${i}`))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length, String(statuses)).toBe(6);
    expect(await count("SELECT count(*) AS n FROM agency_manager_invitations WHERE agency_id = ?", manager.agencyId)).toBe(20);
  });

  it("refuses a manager of another agency (403), and invites nobody", async () => {
    const mine = await createUser("agency");
    const theirs = await createUser("agency");
    const email = fresh("cross");
    const res = await post("/agency-dashboard.data", { agencyId: theirs.agencyId!, intent: "add_manager", email }, mine.cookie);
    expect(res.status).toBe(403);
    expect(await count("SELECT count(*) AS n FROM agency_manager_invitations WHERE email = ?", email)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", email)).toBe(0);
  });
});

describe("accepting an invitation", () => {
  it("an approved user with the invited, verified e-mail accepts once and manages the agency", async () => {
    const manager = await createUser("agency");
    const friend = await createUser("creator");
    await invite(manager, friend.email.toUpperCase());
    const token = await tokenMailedTo(friend.email);
    expect(await redirectOf(await get("/agency-dashboard", friend.cookie))).toBe("/agency-application-signup");

    const page = await (await get(`/agency-invitation?token=${token}`, friend.cookie)).text();
    const agencyName = (await one<{ name: string }>("SELECT name FROM agencies WHERE id = ?", manager.agencyId))!.name;
    expect(page).toContain(agencyName);
    expect(page).toContain("Accept invitation");

    const res = await accept(friend, token);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/agency-dashboard?agency=${manager.agencyId}`);
    expect(toastTitle(res)).toBe(`You now manage ${agencyName}`);
    expect(await managerRows(manager.agencyId!, friend.id)).toBe(1);
    expect((await get("/agency-dashboard", friend.cookie)).status).toBe(200);
    expect(await one("SELECT accepted_by FROM agency_manager_invitations WHERE token_hash = ?", sha256Hex(token))).toEqual({ accepted_by: friend.id });
    // The inviter hears of it.
    expect(await count("SELECT count(*) AS n FROM user_notifications WHERE user_id = ?", manager.id)).toBe(1);

    // Used up: a second accept and the page both say so.
    const again = await accept(friend, token);
    expect(again.status).toBe(404);
    expect(await (await get(`/agency-invitation?token=${token}`, friend.cookie)).text()).toContain(INVITATION_MESSAGES.invalid);
    expect(await managerRows(manager.agencyId!, friend.id)).toBe(1);
  });

  it("parallel accepts: one manager row, one audit row, one success", async () => {
    const manager = await createUser("agency");
    const friend = await createUser("creator");
    await invite(manager, friend.email);
    const token = await tokenMailedTo(friend.email);
    const results = await Promise.all(Array.from({ length: 6 }, () => accept(friend, token, ".data")));
    const statuses = results.map((r) => r.status);
    // The losers found it used up: before reading it (404) or at the guarded update (409).
    expect(statuses.filter((s) => s === 404 || s === 409).length, String(statuses)).toBe(5);
    expect(statuses.filter((s) => s === 202).length, String(statuses)).toBe(1);
    expect(await managerRows(manager.agencyId!, friend.id)).toBe(1);
    expect(
      await count(
        "SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'agency_manager_added' AND user_id = ? AND json_extract(details, '$.agency_id') = ?",
        friend.id,
        manager.agencyId,
      ),
    ).toBe(1);
  });

  it("another account holding the link cannot accept, and is not told the agency", async () => {
    const manager = await createUser("agency");
    const friend = await createUser("creator");
    const stranger = await createUser("creator");
    await invite(manager, friend.email);
    const token = await tokenMailedTo(friend.email);
    const agencyName = (await one<{ name: string }>("SELECT name FROM agencies WHERE id = ?", manager.agencyId))!.name;
    const page = await (await get(`/agency-invitation?token=${token}`, stranger.cookie)).text();
    expect(page).toContain(INVITATION_MESSAGES.wrongAccount);
    expect(page).not.toContain(agencyName);
    expect(page).not.toContain(friend.email);
    expect((await accept(stranger, token)).status).toBe(403);
    expect(await managerRows(manager.agencyId!, stranger.id)).toBe(0);
    // Still there for the right person.
    expect((await accept(friend, token)).status).toBe(302);
  });

  it("a pending, a rejected or an unverified account cannot accept; the invitation waits", async () => {
    const manager = await createUser("agency");
    const pending = await createUser("pending");
    const rejected = await createUser("rejected");
    const unverified = await createUser("creator");
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(unverified.id).run();
    for (const [user, message] of [
      [pending, INVITATION_MESSAGES.unapproved],
      [rejected, INVITATION_MESSAGES.unapproved],
      [unverified, INVITATION_MESSAGES.unverified],
    ] as const) {
      await invite(manager, user.email);
      const token = await tokenMailedTo(user.email);
      expect(await (await get(`/agency-invitation?token=${token}`, user.cookie)).text()).toContain(message);
      const res = await accept(user, token, ".data");
      expect(res.status).toBe(403);
      expect(await res.text()).toContain(message);
      expect(await managerRows(manager.agencyId!, user.id)).toBe(0);
      expect(await one("SELECT accepted_at FROM agency_manager_invitations WHERE token_hash = ?", sha256Hex(token))).toEqual({ accepted_at: null });
    }
  });

  it("a banned account is signed out by the guard and never becomes a manager", async () => {
    const manager = await createUser("agency");
    const banned = await createUser("banned");
    await invite(manager, banned.email);
    const token = await tokenMailedTo(banned.email);
    const res = await accept(banned, token);
    expect(await redirectOf(res)).toBe("/auth");
    expect(await managerRows(manager.agencyId!, banned.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", banned.id)).toBe(0);
  });

  it("an expired or unknown token is refused; signed out, the link asks to sign in and comes back", async () => {
    const manager = await createUser("agency");
    const friend = await createUser("creator");
    await invite(manager, friend.email);
    const token = await tokenMailedTo(friend.email);
    expect(await redirectOf(await get(`/agency-invitation?token=${token}`))).toBe(
      `/auth?redirectTo=${encodeURIComponent(`/agency-invitation?token=${token}`)}`,
    );
    await env.DB.prepare("UPDATE agency_manager_invitations SET expires_at = ? WHERE token_hash = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), sha256Hex(token))
      .run();
    expect(await (await get(`/agency-invitation?token=${token}`, friend.cookie)).text()).toContain(INVITATION_MESSAGES.invalid);
    expect((await accept(friend, token)).status).toBe(404);
    expect((await accept(friend, "not-a-real-token")).status).toBe(404);
    expect((await accept(friend, "")).status).toBe(400);
    expect(await managerRows(manager.agencyId!, friend.id)).toBe(0);
  });

  it("a renewed invitation replaces the old link", async () => {
    const manager = await createUser("agency");
    const friend = await createUser("creator");
    await invite(manager, friend.email);
    const first = await tokenMailedTo(friend.email);
    // Past the resend pause: the next invitation renews the token.
    await env.DB.prepare("UPDATE agency_manager_invitations SET created_at = ? WHERE token_hash = ?")
      .bind(new Date(Date.now() - 5 * 60 * 1000).toISOString(), sha256Hex(first))
      .run();
    await invite(manager, friend.email);
    const second = await tokenMailedTo(friend.email);
    expect(second).not.toBe(first);
    expect((await accept(friend, first)).status).toBe(404);
    expect((await accept(friend, second)).status).toBe(302);
    expect(await managerRows(manager.agencyId!, friend.id)).toBe(1);
  });
});
