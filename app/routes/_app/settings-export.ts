import { requireApiUser } from "~/modules/accounts/guards.server";
import { exportMyData } from "~/modules/privacy/privacy.server";
import { downloadResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/settings-export";

// "A copy of my data" (the privacy policy; issue 28): the signed-in person's data as a JSON
// download. Rate-limited and audit-logged by the privacy module. No approval needed (like /settings),
// and an account waiting out its deletion can still take its data (/account-deletion links here;
// docs/decisions/0292).
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { duringDeletionGrace: true });
  const { filename, body } = await exportMyData(args.request, user);
  return downloadResponse(body, "application/json; charset=utf-8", filename);
});
