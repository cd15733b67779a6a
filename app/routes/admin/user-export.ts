import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { uuidSchema } from "~/modules/admin/schema";
import { exportDataFor } from "~/modules/privacy/privacy.server";
import { downloadResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import { notFound } from "~/lib/errors";
import type { Route } from "./+types/user-export";

// An admin downloads a person's data for them, when they asked by e-mail (issue 28). The privacy
// module authorizes (admins only), limits and writes a high-severity audit row.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const admin = await requireApiUser(args, { admin: true });
  const id = uuidSchema.safeParse(args.params.id);
  if (!id.success) throw notFound("User not found.");
  const data = await exportDataFor(actorOf(admin), id.data, args.request);
  if (!data) throw notFound("User not found.");
  return downloadResponse(data.body, "application/json; charset=utf-8", data.filename);
});
