import { authorize } from "~/lib/permissions";
import { invalid } from "~/lib/errors";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isOptedOut, setOptOut, verifyUnsubscribeLink } from "~/platform/email-preferences.server";
import { actorOf } from "./directory.server";
import type { SessionUser } from "./session.server";

// The person's e-mail settings (Settings → E-mails): optional mail (nudges, summaries, campaign
// news) on or off for their address. Account and money e-mails always go (docs/decisions/0212).

export async function emailSettings(user: SessionUser): Promise<{ news: boolean }> {
  authorize(actorOf(user), "account", "read");
  return { news: !(await isOptedOut(user.email, "news")) };
}

export async function setNewsEmails(request: Request, user: SessionUser, on: boolean): Promise<void> {
  authorize(actorOf(user), "account", "update");
  await setOptOut(user.email, "news", !on);
  await db().batch([auditQuery({ eventType: on ? "email_news_on" : "email_news_off", userId: user.id, targetUserId: user.id, request })]);
}

/**
 * One-click unsubscribe (RFC 8058) and the page behind the link: the signed link names the address
 * and category; no sign-in needed. A link that is not ours changes nothing.
 */
export async function unsubscribeWithLink(url: URL): Promise<{ address: string }> {
  const link = await verifyUnsubscribeLink(url.searchParams.get("e") ?? "", url.searchParams.get("c") ?? "", url.searchParams.get("t") ?? "");
  if (!link) throw invalid("This unsubscribe link is not valid. Change your e-mail settings in Settings instead.", { title: "Invalid link" });
  await setOptOut(link.address, link.category, true);
  return { address: link.address };
}

/** Whether an unsubscribe link is ours (the page's GET shows the address before the button). */
export async function checkUnsubscribeLink(url: URL): Promise<{ address: string } | null> {
  const link = await verifyUnsubscribeLink(url.searchParams.get("e") ?? "", url.searchParams.get("c") ?? "", url.searchParams.get("t") ?? "");
  return link ? { address: link.address } : null;
}
