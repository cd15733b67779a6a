// Issue 42 §3, what an invited clipper meets in the first hour: two approvals (the creator's and the
// admin's) said on the invitation and on the waiting page with where each stands; after both, the
// waiting page leads to /clipping; a person who only clips sees "Creators you clip for" first. A
// pending person opening /clipping is still recorded as the spec asks (section 6, high severity).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, outcome, withCookie } from "../helpers";
import { act } from "./helpers";

async function inviteCode(creator: TestUser): Promise<string> {
  const html = await (await act(creator, { intent: "create-invitation", email: "" })).text();
  return /\/auth\?ref=([a-z0-9]+)&amp;clipper=1/.exec(html)?.[1] ?? "";
}

/** A pending account that used the creator's invitation at sign-up (the invitation's state as the sign-up batch leaves it). */
async function pendingClipper(creator: TestUser): Promise<{ clipper: TestUser; invitationId: string }> {
  const clipper = await createUser("pending", { fullName: "Pat Pending" });
  const invitationId = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO clipper_invitations (id, creator_user_id, code_hash, status, expires_at, accepted_by, accepted_at) VALUES (?, ?, ?, 'accepted', ?, ?, ?)",
  )
    .bind(invitationId, creator.id, crypto.randomUUID(), new Date(Date.now() + 86_400_000).toISOString(), clipper.id, new Date().toISOString())
    .run();
  return { clipper, invitationId };
}

const textOf = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "");

describe("an invited clipper's two approvals", () => {
  it("the invitation names both steps", async () => {
    const creator = await createUser("creator", { fullName: "Casey Twostep" });
    const code = await inviteCode(creator);
    const page = textOf(await (await fetchApp(`/auth?ref=${code}&clipper=1`)).text());
    expect(page).toContain("Two approvals follow: Casey Twostep approves you as their clipper, and a Shortbeat admin approves your new account");
  });

  it("the waiting page says where each stands, and after both it leads to /clipping", async () => {
    const creator = await createUser("creator", { fullName: "Casey Twostep" });
    const { clipper, invitationId } = await pendingClipper(creator);

    let page = textOf(await (await fetchApp("/pending-approval", withCookie(clipper.cookie))).text());
    expect(page).toContain("Casey Twostep approves you as their clipper: waiting for their approval.");
    expect(page).toContain("An admin approves your account: waiting for review.");

    // The spec's record of a non-approved visit to a guarded path stays (section 6).
    expect(await outcome(await fetchApp("/clipping", withCookie(clipper.cookie)))).toBe("→/pending-approval");
    expect(
      await count(
        "SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'unauthorized_access_attempt' AND severity = 'high' AND user_id = ?",
        clipper.id,
      ),
    ).toBe(1);

    // The creator approves first: the page says so.
    expect((await act(creator, { intent: "approve-clipper", invitationId })).status).toBe(302);
    page = textOf(await (await fetchApp("/pending-approval", withCookie(clipper.cookie))).text());
    expect(page).toContain("Casey Twostep approves you as their clipper: approved.");

    // Then the admin: the waiting page moves the person to /clipping, not the dashboard.
    await env.DB.prepare("UPDATE profiles SET approval_status = 'approved' WHERE user_id = ?").bind(clipper.id).run();
    expect(await outcome(await fetchApp("/pending-approval", withCookie(clipper.cookie)))).toBe("→/clipping");
    // Someone who never clipped still goes to the dashboard.
    const plain = await createUser("creator");
    expect(await outcome(await fetchApp("/pending-approval", withCookie(plain.cookie)))).toBe("→/dashboard");
  });
});

describe("/clipping for a person who only clips", () => {
  it("shows the creators they clip for before the creator's own tools", async () => {
    const clipper = await createUser("clipper");
    const html = await (await fetchApp("/clipping", withCookie(clipper.cookie))).text();
    const creators = html.indexOf("Creators you clip for");
    expect(creators).toBeGreaterThan(-1);
    expect(creators).toBeLessThan(html.indexOf("Source folder"));
    expect(creators).toBeLessThan(html.indexOf("Invite a clipper") === -1 ? Number.MAX_SAFE_INTEGER : html.indexOf("Invite a clipper"));

    // A creator with clippers of their own keeps their tools first.
    const creator = await createUser("creator");
    const own = await (await fetchApp("/clipping", withCookie(creator.cookie))).text();
    expect(own.indexOf("Source folder")).toBeGreaterThan(-1);
    expect(own.indexOf("Creators you clip for")).toBe(-1);
  });
});
