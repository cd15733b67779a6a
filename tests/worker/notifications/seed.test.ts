// The demo creator's bell tells the seed's story (issue 42 §5): a "Payout sent" for the paid payout
// and the campaign reviews, with the texts the app writes, the recent ones unread; once however
// often the seed runs. app/dev/notifications-seed.ts.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { hashPassword } from "~/modules/accounts/accounts.server";
import type { NotificationList } from "~/modules/notifications/notifications";
import { formatCents } from "~/modules/payments/money";
import { signInAs } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";

it("seeds the notifications of the demo creator's payouts and reviewed campaign videos, some unread, once", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const creatorId = DEMO_ACCOUNTS.find((a) => a.kind === "creator")?.id ?? "";
  const { cookie } = await signInAs(creatorId);
  const res = await fetchApp("/api/notifications", withCookie(cookie));
  expect(res.status).toBe(200);
  const list = (await res.json()) as NotificationList;

  const payout = await env.DB.prepare("SELECT amount_cents, reference FROM payouts WHERE user_id = ? AND status = 'paid'")
    .bind(creatorId)
    .first<{ amount_cents: number; reference: string }>();
  expect(payout).toBeTruthy();
  const titles = list.notifications.map((n) => n.title);
  expect(titles.filter((t) => t === "Payout sent")).toHaveLength(1);
  expect(list.notifications.find((n) => n.title === "Payout sent")?.content).toBe(
    `Your payout of ${formatCents(payout?.amount_cents ?? 0)} has been sent. Reference: ${payout?.reference}.`,
  );
  expect(titles.filter((t) => t === "Submission approved")).toHaveLength(2);
  expect(list.notifications.map((n) => n.content)).toContain(
    `Your video for "Summer Launch" has 12,345 verified views: estimated payout ${formatCents(3086)}.`,
  );
  expect(list.notifications.find((n) => n.title === "Submission rejected")?.content).toMatch(
    /was not approved\. Reason: The required track is not in the video\.$/,
  );
  expect(list.unreadCount).toBeGreaterThan(0);
  expect(list.unreadCount).toBeLessThan(list.notifications.length);
}, 300_000);
