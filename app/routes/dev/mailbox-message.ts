import { data } from "react-router";
import { renderedMail } from "~/dev/mailbox.server";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/mailbox-message";

// One e-mail of the development mailbox as it leaves: the template's HTML (development builds, DEV_TOOLS only).
export async function loader({ params }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const mail = await renderedMail(params.id);
  if (!mail) throw data("Not Found", { status: 404 });
  return new Response(mail.html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
