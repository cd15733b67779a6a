import { describe, expect, it } from "vitest";
import { createUser, signInAs, userBeforeAll } from "../../factories/users";
import { count, one, post } from "../admin-agency-helpers";
import { fetchApp, ORIGIN } from "../helpers";

// A transition happens once: parallel requests for the same change make it once, and only that
// one sends the e-mail, the notification and the audit row; the others are told it already
// happened (409). And a body that is not a form changes nothing.

const PARALLEL = 10;

const fields = (intent: string, userId: string, reason?: string): Record<string, string> => ({
  intent,
  userId,
  confirm: "yes",
  ...(reason ? { reason } : {}),
});

const audits = (eventType: string, targetUserId: string) =>
  count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = ? AND target_user_id = ?", eventType, targetUserId);
const emails = (to: string, kind: string) => count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = ?", to, kind);
const notifications = (userId: string) => count("SELECT count(*) AS n FROM user_notifications WHERE user_id = ?", userId);

async function inParallel(body: Record<string, string>, cookie: string): Promise<number[]> {
  const responses = await Promise.all(Array.from({ length: PARALLEL }, () => post("/admin", body, cookie)));
  return responses.map((r) => r.status).sort();
}

describe("admin transitions happen once", () => {
  const admin = userBeforeAll("admin");

  it(`${PARALLEL} parallel approvals: one approval, one e-mail, one notification, one audit row`, async () => {
    const target = await createUser("pending");
    const statuses = await inParallel(fields("approve", target.id), admin.cookie);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(PARALLEL - 1);
    expect((await one("SELECT approval_status FROM profiles WHERE user_id = ?", target.id))?.approval_status).toBe("approved");
    expect(await emails(target.email, "account_approved")).toBe(1);
    expect(await notifications(target.id)).toBe(1);
    expect(await audits("user_approved", target.id)).toBe(1);
  });

  it(`${PARALLEL} parallel rejections: one e-mail, one audit row`, async () => {
    const target = await createUser("pending");
    const statuses = await inParallel(fields("reject", target.id, "Not a fit"), admin.cookie);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(await emails(target.email, "account_rejected")).toBe(1);
    expect(await notifications(target.id)).toBe(1);
    expect(await audits("user_rejected", target.id)).toBe(1);
  });

  it(`${PARALLEL} parallel bans: one ban, one e-mail, one audit row, sessions ended`, async () => {
    const target = await createUser("creator");
    await signInAs(target.id);
    const statuses = await inParallel(fields("ban", target.id, "Spam"), admin.cookie);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(PARALLEL - 1);
    expect(await emails(target.email, "account_banned")).toBe(1);
    expect(await audits("user_banned", target.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", target.id)).toBe(0);
  });

  it(`${PARALLEL} parallel admin grants: one role, one audit row`, async () => {
    const target = await createUser("creator");
    const statuses = await inParallel(fields("grant_admin", target.id), admin.cookie);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(await count("SELECT count(*) AS n FROM user_roles WHERE user_id = ?", target.id)).toBe(1);
    expect(await audits("admin_role_granted", target.id)).toBe(1);
  });

  it(`${PARALLEL} parallel music partner toggles: each answered success is one real change`, async () => {
    const target = await createUser("creator");
    const statuses = await inParallel(fields("toggle_music_partner", target.id), admin.cookie);
    // A toggle that read the flag after another one changed it is a toggle of its own; two that
    // read the same flag change it once.
    const done = statuses.filter((s) => s === 302).length;
    const granted = await audits("music_partner_granted", target.id);
    const revoked = await audits("music_partner_revoked", target.id);
    expect(done).toBeGreaterThanOrEqual(1);
    expect(granted + revoked).toBe(done);
    expect(granted - revoked).toBe(granted > revoked ? 1 : 0);
    expect((await one("SELECT is_music_partner FROM profiles WHERE user_id = ?", target.id))?.is_music_partner).toBe(granted - revoked);
    expect(await notifications(target.id)).toBe(done);
    expect(statuses.filter((s) => s !== 302 && s !== 409)).toEqual([]);
  });
});

describe("admin actions read only forms", () => {
  const admin = userBeforeAll("admin");

  const send = (path: string, cookie: string, contentType: string | null, body: string) => {
    const headers = new Headers({ Origin: ORIGIN, Cookie: cookie });
    if (contentType) headers.set("Content-Type", contentType);
    return fetchApp(path, { method: "POST", headers, body });
  };
  const BODIES: [string, string | null, string, number][] = [
    ["JSON", "application/json", "{}", 415],
    ["text", "text/plain", "intent=approve", 415],
    ["empty", null, "", 415],
    ["broken multipart", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=", 400],
  ];

  it.each(BODIES)("a %s body answers its status and changes nothing", async (_, contentType, body, status) => {
    const target = await createUser("pending");
    for (const path of ["/admin", "/admin/settings", "/admin-recovery"]) {
      const res = await send(path, admin.cookie, contentType, body);
      expect(res.status, path).toBe(status);
    }
    expect((await one("SELECT approval_status FROM profiles WHERE user_id = ?", target.id))?.approval_status).toBe("pending");
    expect(await count("SELECT count(*) AS n FROM app_settings")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE target_user_id = ?", target.id)).toBe(0);
  });
});
