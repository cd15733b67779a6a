import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { referralQrPng } from "~/modules/growth/growth.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/referrals-qr-png";

// The signed-in approved user's referral link as a QR code, PNG (issue 31 §4), saved as a file.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const png = await referralQrPng(actorOf(user), user.creatorId);
  return new Response(png as BodyInit, {
    headers: {
      "Content-Type": "image/png",
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": `attachment; filename="shortbeat-referral-${user.creatorId.replace(/[^A-Za-z0-9_-]/g, "")}.png"`,
    },
  });
});
