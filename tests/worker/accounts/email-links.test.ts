import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { actorOf, approveUser, validateSessionToken } from "~/modules/accounts/accounts.server";
import { createUser } from "../../factories/users";
import { fetchApp, passwordBeforeAll, signUpFields } from "../helpers";

// E-mail links are built from the configured APP_ORIGIN, never from the Host header (issue 11,
// item 8): a forged Host would put the attacker's site in front of a reset token.

passwordBeforeAll();

const APP_ORIGIN = "https://shortbeat.test"; // vitest.config.ts
const EVIL = "https://evil.example";

/** A form POST that arrived with Host: evil.example (what the Worker sees is the request URL). */
function postFromEvilHost(path: string, fields: Record<string, string>, ip: string) {
  return fetchApp(new URL(path, EVIL).toString(), {
    method: "POST",
    headers: { Origin: EVIL, Host: "evil.example", "CF-Connecting-IP": ip },
    body: new URLSearchParams(fields),
  });
}

async function linksTo(email: string): Promise<string[]> {
  const rows = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ?").bind(email).all<{ body_text: string }>();
  return rows.results.flatMap((r) => r.body_text.match(/https?:\/\/\S+/g) ?? []);
}

describe("e-mail links", () => {
  it("start with APP_ORIGIN whatever Host the request came with", async () => {
    expect(env.APP_ORIGIN).toBe(APP_ORIGIN);
    const email = `links-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signUp = await postFromEvilHost(
      "/auth",
      signUpFields(email, { fullName: "Link Checker", channelUrl: "https://www.youtube.com/@links", subscribers: "1", monthlyViews: "1" }),
      "192.0.2.201",
    );
    expect(signUp.status).toBe(302);
    // Verification, a second sign-up (the owner's notice) and a reset request.
    await postFromEvilHost(
      "/auth",
      signUpFields(email, { fullName: "Again", channelUrl: "https://www.youtube.com/@links", subscribers: "1", monthlyViews: "1" }),
      "192.0.2.202",
    );
    await postFromEvilHost("/auth/forgot-password", { email }, "192.0.2.203");
    const kinds = await env.DB.prepare("SELECT kind FROM email_outbox WHERE to_email = ? ORDER BY kind").bind(email).all<{ kind: string }>();
    expect(kinds.results.map((r) => r.kind)).toEqual(["email_verification", "password_reset", "signup_existing"]);

    const links = await linksTo(email);
    expect(links.length).toBeGreaterThanOrEqual(4);
    for (const link of links) expect(link.startsWith(`${APP_ORIGIN}/`)).toBe(true);
    expect(links.join(" ")).not.toContain("evil.example");
  });

  it("in the approval e-mail too", async () => {
    const admin = await createUser("admin");
    const pending = await createUser("pending");
    const actor = actorOf((await validateSessionToken(admin.token))!);
    await approveUser(actor, pending.id, new Request(`${EVIL}/admin/users`, { method: "POST" }));
    const links = await linksTo(pending.email);
    expect(links).toEqual([`${APP_ORIGIN}/auth`]);
  });
});
