import { data } from "react-router";
import { devToolsEnabled } from "~/platform/env.server";
import { hashPassword, verifyPassword } from "~/modules/accounts/accounts.server";
import type { Route } from "./+types/bench";

// Measures password hashing inside workerd (DEV_TOOLS only), for scripts/bench-password.mjs.
export async function loader({ request }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const n = Math.min(20, Math.max(1, Number(new URL(request.url).searchParams.get("n") ?? 5)));
  const hashMs: number[] = [];
  const verifyMs: number[] = [];
  let encoded = "";
  for (let i = 0; i < n; i++) {
    // performance.now() advances only across I/O in Workers; Date.now() likewise, so time the
    // work around an awaited no-op fetch-free boundary: measure with scheduler yields.
    const t0 = Date.now();
    encoded = await hashPassword(`bench-password-${i}`);
    await new Promise((r) => setTimeout(r, 0));
    hashMs.push(Date.now() - t0);
    const t1 = Date.now();
    await verifyPassword(encoded, `bench-password-${i}`);
    await new Promise((r) => setTimeout(r, 0));
    verifyMs.push(Date.now() - t1);
  }
  return Response.json({ n, encodedPrefix: encoded.split("$").slice(0, 4).join("$"), hashMs, verifyMs });
}
