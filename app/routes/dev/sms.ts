import { data } from "react-router";
import { handleStandInSms } from "~/dev/dev-sms.server";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/sms";

// The stand-in SMS provider's Messages API (Twilio's shape; development builds, DEV_TOOLS only).
// The app calls it in-process (app/platform/sms.server.ts); this route answers the same for curl.
export async function action({ request }: Route.ActionArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return handleStandInSms(request);
}

export function loader() {
  throw data("Not Found", { status: 404 });
}
