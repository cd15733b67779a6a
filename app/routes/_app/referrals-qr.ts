import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { referralQrSvg } from "~/modules/growth/growth.server";
import { downloadResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/referrals-qr";

// The signed-in approved user's referral link as a QR code (SVG); ?download=1 saves it as a file.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const svg = referralQrSvg(actorOf(user), user.creatorId);
  const download = new URL(args.request.url).searchParams.get("download") === "1";
  return downloadResponse(svg, "image/svg+xml; charset=utf-8", download ? `shortbeat-referral-${user.creatorId}.svg` : null);
});
