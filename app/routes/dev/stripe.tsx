import { data, Form } from "react-router";
import { z } from "zod";
import { deliver, refuseNextTransfer, reverseTransfer, setAccountState, standInState } from "~/dev/dev-stripe.server";
import { parseForm } from "~/platform/body.server";
import { devToolsEnabled } from "~/platform/env.server";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Button } from "~/ui/button";
import type { Route } from "./+types/stripe";

// The Stripe stand-in's dashboard (development builds, DEV_TOOLS only): its connected accounts,
// transfers and webhook events, and what a platform or Stripe can do to them — reverse a transfer
// (Stripe then sends transfer.reversed), restrict or enable an account (account.updated), send an
// event again (a replay the app must ignore), or refuse the next transfer as Stripe does when the
// platform's balance is short.

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reverse"), transfer: z.string().min(1) }),
  z.object({ intent: z.literal("account"), account: z.string().min(1), outcome: z.enum(["complete", "restricted", "verifying"]) }),
  z.object({ intent: z.literal("resend"), event: z.string().min(1) }),
  z.object({ intent: z.literal("refuse_next"), on: z.enum(["yes", "no"]) }),
]);

export async function loader() {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return standInState();
}

export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const input = await parseForm(request, schema);
  let description = "";
  if (input.intent === "reverse") {
    await reverseTransfer(input.transfer, request);
    description = `Transfer ${input.transfer} reversed: transfer.reversed is on its way to the app.`;
  } else if (input.intent === "account") {
    await setAccountState(input.account, input.outcome, request);
    description = `Account ${input.account}: ${input.outcome}. account.updated is on its way to the app.`;
  } else if (input.intent === "resend") {
    const status = await deliver(input.event, new URL(request.url).origin);
    description = `Event ${input.event} sent again: the app answered ${status}.`;
  } else {
    await refuseNextTransfer(input.on === "yes");
    description = input.on === "yes" ? "The next transfer is refused (insufficient funds)." : "Transfers go through again.";
  }
  return redirectWithToast(request, "/dev/stripe", { type: "success", title: "Stripe stand-in", description });
}, "Stripe stand-in");

export const meta = () => [{ title: "Stripe stand-in" }];

const cell = "border-b border-slate-100 px-2 py-1 align-top";

export default function StandInDashboard({ loaderData }: Route.ComponentProps) {
  const { accounts, transfers, events, refusing } = loaderData;
  return (
    <main className="mx-auto max-w-5xl space-y-8 p-6 text-sm">
      <header>
        <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">Local Stripe stand-in</p>
        <h1 className="text-xl font-bold text-slate-900">Connected accounts, transfers and webhooks</h1>
        <Form method="post" className="mt-2 flex items-center gap-2">
          <input type="hidden" name="intent" value="refuse_next" />
          <input type="hidden" name="on" value={refusing ? "no" : "yes"} />
          <span>{refusing ? "The next transfer will be refused (insufficient funds)." : "Transfers go through."}</span>
          <Button type="submit">{refusing ? "Let transfers through" : "Refuse the next transfer"}</Button>
        </Form>
      </header>
      <section aria-labelledby="accounts">
        <h2 id="accounts" className="text-lg font-semibold">
          Accounts
        </h2>
        <table className="mt-2 w-full text-left">
          <thead>
            <tr>
              <th className={cell}>Account</th>
              <th className={cell}>E-mail</th>
              <th className={cell}>Transfers</th>
              <th className={cell}>Actions</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id}>
                <td className={cell}>{a.id}</td>
                <td className={cell}>{a.email}</td>
                <td className={cell}>{a.capabilities.transfers}</td>
                <td className={cell}>
                  {(["complete", "restricted"] as const).map((outcome) => (
                    <Form key={outcome} method="post" className="inline">
                      <input type="hidden" name="intent" value="account" />
                      <input type="hidden" name="account" value={a.id} />
                      <input type="hidden" name="outcome" value={outcome} />
                      <Button type="submit">
                        {outcome === "complete" ? "Enable" : "Restrict"} <span className="sr-only">{a.id}</span>
                      </Button>
                    </Form>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="transfers">
        <h2 id="transfers" className="text-lg font-semibold">
          Transfers
        </h2>
        <table className="mt-2 w-full text-left">
          <thead>
            <tr>
              <th className={cell}>Transfer</th>
              <th className={cell}>Amount</th>
              <th className={cell}>Destination</th>
              <th className={cell}>Payout</th>
              <th className={cell}>Actions</th>
            </tr>
          </thead>
          <tbody>
            {transfers.map((t) => (
              <tr key={t.id}>
                <td className={cell}>{t.id}</td>
                <td className={cell}>
                  {(t.amount / 100).toFixed(2)} {t.currency.toUpperCase()}
                  {t.reversed ? " (reversed)" : ""}
                </td>
                <td className={cell}>{t.destination}</td>
                <td className={cell}>{t.transfer_group}</td>
                <td className={cell}>
                  {t.reversed ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="reverse" />
                      <input type="hidden" name="transfer" value={t.id} />
                      <Button type="submit">
                        Reverse <span className="sr-only">{t.id}</span>
                      </Button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="events">
        <h2 id="events" className="text-lg font-semibold">
          Webhook events
        </h2>
        <table className="mt-2 w-full text-left">
          <thead>
            <tr>
              <th className={cell}>Event</th>
              <th className={cell}>Type</th>
              <th className={cell}>Delivered</th>
              <th className={cell}>Actions</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id}>
                <td className={cell}>{e.id}</td>
                <td className={cell}>{e.type}</td>
                <td className={cell}>{e.delivered ?? "—"}</td>
                <td className={cell}>
                  <Form method="post">
                    <input type="hidden" name="intent" value="resend" />
                    <input type="hidden" name="event" value={e.id} />
                    <Button type="submit">
                      Send again <span className="sr-only">{e.id}</span>
                    </Button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}
