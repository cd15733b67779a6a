import { data } from "react-router";
import { devToolsEnabled, env } from "~/platform/env.server";
import { notifyAccountDecision } from "~/modules/notifications/notifications.server";
import { endAllSessions } from "~/modules/accounts/session.server";
import type { Route } from "./+types/factory";

// Test factory for end-to-end tests and local demos (DEV_TOOLS only): approve, reject or ban a
// user by e-mail without the admin console.
export async function action({ request }: Route.ActionArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const email = String(form.get("email") ?? "").toLowerCase();
  const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
  if (!user) return Response.json({ error: "no such user" }, { status: 404 });
  // The same notification (and live account event) an admin's decision sends.
  const notify = (decision: "approved" | "rejected" | "banned" | "unbanned") => notifyAccountDecision(user.id, decision, null);
  switch (intent) {
    case "approve":
      await env.DB.prepare("UPDATE profiles SET approval_status = 'approved', updated_at = ? WHERE user_id = ?").bind(new Date().toISOString(), user.id).run();
      await notify("approved");
      break;
    case "reject":
      await env.DB.prepare("UPDATE profiles SET approval_status = 'rejected', rejection_reason = ? WHERE user_id = ?")
        .bind(String(form.get("reason") ?? "Not eligible"), user.id)
        .run();
      await notify("rejected");
      break;
    case "ban":
      await env.DB.prepare("UPDATE profiles SET is_banned = 1, ban_reason = ? WHERE user_id = ?").bind(String(form.get("reason") ?? "Test ban"), user.id).run();
      await notify("banned");
      await endAllSessions(user.id);
      break;
    case "verify-email":
      await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(new Date().toISOString(), user.id).run();
      break;
    default:
      return Response.json({ error: "unknown intent" }, { status: 400 });
  }
  return Response.json({ ok: true, userId: user.id });
}

export function loader() {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return Response.json({ intents: ["approve", "reject", "ban", "verify-email"] });
}
