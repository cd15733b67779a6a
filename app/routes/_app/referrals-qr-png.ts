import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { referralQrPng } from "~/modules/growth/growth.server";
import { downloadResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/referrals-qr-png";

// The signed-in approved user's referral link as a QR code, PNG (issue 31 §4), saved as a file.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const png = await referralQrPng(actorOf(user), user.creatorId);
  return downloadResponse(png as BodyInit, "image/png", `shortbeat-referral-${user.creatorId}.png`);
});
