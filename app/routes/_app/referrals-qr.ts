import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { referralQrSvg } from "~/modules/growth/growth.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/referrals-qr";

// The signed-in approved user's referral link as a QR code (SVG); ?download=1 saves it as a file.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const svg = referralQrSvg(actorOf(user), user.creatorId);
  const download = new URL(args.request.url).searchParams.get("download") === "1";
  return new Response(svg, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ...(download ? { "Content-Disposition": `attachment; filename="shortbeat-referral-${user.creatorId.replace(/[^A-Za-z0-9_-]/g, "")}.svg"` } : {}),
    },
  });
});
