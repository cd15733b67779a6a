import type { ReactNode } from "react";
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

/** One of the stand-in's lists: a heading, its columns (the last one "Actions") and a row per item. */
function StandInTable<T extends { id: string }>({
  id,
  title,
  columns,
  rows,
  children,
}: {
  id: string;
  title: string;
  columns: string[];
  rows: T[];
  children: (row: T) => ReactNode[];
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <table className="mt-2 w-full text-left">
        <thead>
          <tr>
            {[...columns, "Actions"].map((c) => (
              <th key={c} className={cell}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {children(row).map((content, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed, in column order
                <td key={i} className={cell}>
                  {content}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A button that posts `fields` (the intent and its subject) to this page's action. */
function StandInAction({ fields, label, subject, className }: { fields: Record<string, string>; label: ReactNode; subject?: string; className?: string }) {
  return (
    <Form method="post" className={className}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit">
        {label}
        {subject ? <span className="sr-only"> {subject}</span> : null}
      </Button>
    </Form>
  );
}

export default function StandInDashboard({ loaderData }: Route.ComponentProps) {
  const { accounts, transfers, events, refusing } = loaderData;
  return (
    <main className="mx-auto max-w-5xl space-y-8 p-6 text-sm">
      <header>
        <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">Local Stripe stand-in</p>
        <h1 className="text-xl font-bold text-slate-900">Connected accounts, transfers and webhooks</h1>
        <div className="mt-2 flex items-center gap-2">
          <span>{refusing ? "The next transfer will be refused (insufficient funds)." : "Transfers go through."}</span>
          <StandInAction
            fields={{ intent: "refuse_next", on: refusing ? "no" : "yes" }}
            label={refusing ? "Let transfers through" : "Refuse the next transfer"}
          />
        </div>
      </header>
      <StandInTable id="accounts" title="Accounts" columns={["Account", "E-mail", "Transfers"]} rows={accounts}>
        {(a) => [
          a.id,
          a.email,
          a.capabilities.transfers,
          (["complete", "restricted"] as const).map((outcome) => (
            <StandInAction
              key={outcome}
              className="inline"
              fields={{ intent: "account", account: a.id, outcome }}
              label={outcome === "complete" ? "Enable" : "Restrict"}
              subject={a.id}
            />
          )),
        ]}
      </StandInTable>
      <StandInTable id="transfers" title="Transfers" columns={["Transfer", "Amount", "Destination", "Payout"]} rows={transfers}>
        {(t) => [
          t.id,
          `${(t.amount / 100).toFixed(2)} ${t.currency.toUpperCase()}${t.reversed ? " (reversed)" : ""}`,
          t.destination,
          t.transfer_group,
          t.reversed ? null : <StandInAction key="reverse" fields={{ intent: "reverse", transfer: t.id }} label="Reverse" subject={t.id} />,
        ]}
      </StandInTable>
      <StandInTable id="events" title="Webhook events" columns={["Event", "Type", "Delivered"]} rows={events}>
        {(e) => [e.id, e.type, e.delivered ?? "—", <StandInAction key="resend" fields={{ intent: "resend", event: e.id }} label="Send again" subject={e.id} />]}
      </StandInTable>
    </main>
  );
}
