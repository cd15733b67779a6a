import { data } from "react-router";
import { FACTORY_INTENTS, factorySchema, runFactory } from "~/dev/factory.server";
import { devToolsEnabled } from "~/platform/env.server";
import { domainResource } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import type { Route } from "./+types/factory";

// Test factory for end-to-end tests and local demos (development builds, DEV_TOOLS only): approve,
// reject or ban a user, verify their e-mail, or carry out their pending account deletion at once
// (intent=run-deletions-now, issue 28), by e-mail address without the admin console.
export const action = domainResource(async ({ request }: Route.ActionArgs) => {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const input = await parseForm(request, factorySchema);
  const { userId } = await runFactory(input);
  return Response.json({ ok: true, userId });
});

export function loader() {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return Response.json({ intents: FACTORY_INTENTS });
}
