import {
  accountKey,
  DAY,
  get,
  kv,
  type LinkRecord,
  linkKey,
  now,
  put,
  type StandInAccount,
  type StandInEvent,
  type StandInTransfer,
  transferKey,
} from "./dev-stripe-store.server";
import { emit } from "./dev-stripe-webhooks.server";

// What the Stripe stand-in's dashboard (/dev/stripe) and onboarding page do to its state: set an
// account's onboarding outcome, refuse the next transfer, reverse one, list everything, use a link.

/** The states the stand-in's onboarding page and dashboard can put an account in. */
export type AccountOutcome = "complete" | "incomplete" | "restricted" | "verifying";

export async function setAccountState(accountId: string, outcome: AccountOutcome, request: Request): Promise<StandInAccount | null> {
  const account = await get<StandInAccount>(accountKey(accountId));
  if (!account) return null;
  const next: StandInAccount = { ...account };
  if (outcome === "complete") {
    Object.assign(next, { details_submitted: true, charges_enabled: false, payouts_enabled: true, capabilities: { transfers: "active" } });
    next.requirements = { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null };
  } else if (outcome === "verifying") {
    Object.assign(next, { details_submitted: true, payouts_enabled: false, capabilities: { transfers: "pending" } });
    next.requirements = { currently_due: [], eventually_due: [], past_due: [], disabled_reason: "requirements.pending_verification" };
  } else if (outcome === "restricted") {
    Object.assign(next, { details_submitted: true, payouts_enabled: false, capabilities: { transfers: "inactive" } });
    next.requirements = {
      currently_due: ["individual.id_number"],
      eventually_due: ["individual.id_number"],
      past_due: ["individual.id_number"],
      disabled_reason: "requirements.past_due",
    };
  } else {
    next.details_submitted = false;
  }
  await put(accountKey(accountId), next);
  await emit("account.updated", next, request, accountId);
  return next;
}

// ---- Transfers -----------------------------------------------------------------------------------

export const REFUSE_NEXT = "devstripe:refuse-next-transfer";

/**
 * How the next transfer is refused (https://docs.stripe.com/error-codes): balance_insufficient when
 * the platform's balance is short (the dashboard's switch), transfers_not_allowed for a refusal about
 * the destination.
 */
export type TransferRefusal = "balance_insufficient" | "transfers_not_allowed";
export const REFUSALS: Record<TransferRefusal, string> = {
  balance_insufficient: "You have insufficient available funds in your Stripe account.",
  transfers_not_allowed: "The requested transfer cannot be created. Contact us if you need further assistance.",
};

/** The dashboard's switch: the next transfer is refused as Stripe refuses one (by default: the platform's balance is short). */
export async function refuseNextTransfer(on: boolean, code: TransferRefusal = "balance_insufficient"): Promise<void> {
  if (on) await kv().put(REFUSE_NEXT, code, { expirationTtl: DAY });
  else await kv().delete(REFUSE_NEXT);
}
export async function refusingNextTransfer(): Promise<boolean> {
  return (await kv().get(REFUSE_NEXT)) !== null;
}

/** Reverses a whole transfer, as the platform can in Stripe's dashboard: Stripe then sends transfer.reversed. */
export async function reverseTransfer(transferId: string, request: Request): Promise<StandInTransfer | null> {
  const transfer = await get<StandInTransfer>(transferKey(transferId));
  if (!transfer || transfer.reversed) return transfer;
  const next = { ...transfer, reversed: true, amount_reversed: transfer.amount };
  await put(transferKey(transferId), next);
  await emit("transfer.reversed", next, request, null);
  return next;
}

/** What the dashboard lists: accounts, transfers and events, newest first. */
export async function standInState(): Promise<{ accounts: StandInAccount[]; transfers: StandInTransfer[]; events: StandInEvent[]; refusing: boolean }> {
  const read = async <T>(prefix: string): Promise<T[]> => {
    const list = await kv().list({ prefix, limit: 200 });
    const found = await Promise.all(list.keys.map((k) => get<T>(k.name)));
    return found.filter((v): v is Awaited<T> => v !== null) as T[];
  };
  const [accounts, transfers, events, refusing] = await Promise.all([
    read<StandInAccount>("devstripe:account:"),
    read<StandInTransfer>("devstripe:transfer:"),
    read<StandInEvent>("devstripe:event:"),
    refusingNextTransfer(),
  ]);
  const newest = (a: { created?: number }, b: { created?: number }) => (b.created ?? 0) - (a.created ?? 0);
  return { accounts: accounts.sort(newest), transfers: transfers.sort(newest), events: events.sort(newest).slice(0, 50), refusing };
}

// ---- Onboarding links ----------------------------------------------------------------------------

/** The onboarding link's record, once: a used or expired link sends the person to its refresh URL, as Stripe's do. */
export async function onboardingLink(linkId: string): Promise<{ link: LinkRecord; account: StandInAccount | null; usable: boolean } | null> {
  const link = await get<LinkRecord>(linkKey(linkId));
  if (!link) return null;
  return { link, account: await get<StandInAccount>(accountKey(link.account)), usable: !link.used && link.expiresAt > now() };
}

export async function useOnboardingLink(linkId: string): Promise<LinkRecord | null> {
  const found = await onboardingLink(linkId);
  if (!found?.usable) return null;
  await put(linkKey(linkId), { ...found.link, used: true }, DAY);
  return found.link;
}
