import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

// Accounts is the ground domain: every other domain builds on it, so it imports none of them
// (issue 32, docs/decisions/0239-one-way-between-domains.md). What the other domains do when an
// account's life changes, and the facts about a person that other domains own, are exported by the
// owning domain (its hooks.server.ts) and handed here in one typed value by app/wiring.server.ts,
// which the Worker's entry imports. Accounts and notifications call them without knowing who listens.

/** A user id column or expression the owner's predicate tests. */
export type UserRef = SQLiteColumn | SQL;

/** A new account, as the listeners of a sign-up see it. */
export type NewAccount = {
  userId: string;
  email: string;
  request: Request;
  /** The clipper invitation the person signed up with, when they ticked both clipper boxes. */
  clipperInvitation: string | null;
  /** Whether someone's referral code brought them. */
  referred: boolean;
};

export type AccountDecision = "approved" | "rejected" | "banned" | "unbanned";

export type Listeners = {
  /** Statements that join the new account's own batch: all or nothing. */
  signUpStatements: (account: NewAccount) => BatchItem<"sqlite">[];
  /** After the account exists. */
  signedUp: (account: NewAccount) => Promise<void>;
  /** After an admin's guarded approval, rejection, ban or unban succeeded (once, however many admins clicked). */
  decided: (userId: string, decision: AccountDecision, reason: string | null) => Promise<void>;
  /** A notice to the person about their account (admin rights, music partner status). */
  notice: (userId: string, notice: { title: string; content: string; createdBy: string | null }) => Promise<void>;
  /** After sessions of the user ended: their open sockets must close. */
  sessionsEnded: (userId: string) => Promise<void>;
  /** Statements for a day on which the user was seen, joining the session's own write. */
  seenStatements: (userId: string, at: number) => BatchItem<"sqlite">[];
};

/** Facts about a person that another domain owns, as SQL over a user id (one owner each). */
export type Facts = {
  /** The person manages (owns or belongs to) an approved, active agency. */
  managesActiveAgency: (userId: UserRef) => SQL;
  /** The person is an active clipper of some creator. */
  isActiveClipper: (userId: UserRef) => SQL;
  /** The agency a creator's sign-up is attributed to: an unrevoked signup token first, else an active agency's slug. */
  agencyForSignUp: (slug: string, token: string) => Promise<{ agencyId: string; tokenId: string | null } | null>;
  /** An agency's name and slug by its id, for lists that show a person's agency. */
  agencyLabelOf: (agencyId: UserRef) => { name: SQL<string | null>; slug: SQL<string | null> };
};

export type AccountHookEvent = keyof Listeners;

/** One listener of an event: who it is (logs, the wiring test) and what it does. */
export type Listener<K extends AccountHookEvent> = { name: string; run: Listeners[K] };

/** A listener, typed by its event (its `run` gets the event's arguments). */
export function listener<K extends AccountHookEvent>(_event: K, name: string, run: Listeners[K]): Listener<K> {
  return { name, run };
}

/**
 * Everything the domains above accounts hand it, in one value built by app/wiring.server.ts: every
 * fact (each with its one owner) and every event's listeners, in order. A fact or an event left out
 * fails the typecheck, and go-to-definition leads from the wiring to each listener.
 */
export type AccountWiring = {
  facts: Facts;
  listeners: { [K in AccountHookEvent]: Listener<K>[] };
};

let wired: AccountWiring | null = null;

/** Hands accounts its wiring (app/wiring.server.ts, once per isolate; again replaces it). */
export function wireAccounts(wiring: AccountWiring): void {
  wired = wiring;
}

function wiring(): AccountWiring {
  if (!wired) throw new Error("Accounts is not wired: import app/wiring.server.ts in this entry.");
  return wired;
}

/** Who listens to each event, by name (the wiring test reads it). */
export function accountListeners(): Record<AccountHookEvent, string[]> {
  const { listeners } = wiring();
  return Object.fromEntries(Object.entries(listeners).map(([event, list]) => [event, list.map((l) => l.name)])) as Record<AccountHookEvent, string[]>;
}

/** The owner's answer to a fact. */
export function fact<K extends keyof Facts>(name: K): Facts[K] {
  return wiring().facts[name];
}

/** The statements every listener adds to a batch. */
export function statementsFor<K extends "signUpStatements" | "seenStatements">(event: K, ...args: Parameters<Listeners[K]>): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [];
  for (const { run } of wiring().listeners[event]) out.push(...(run as (...a: Parameters<Listeners[K]>) => BatchItem<"sqlite">[])(...args));
  return out;
}

/**
 * Tells every listener, after the change is made: a listener's failure is logged and never turns
 * the change into an error, nor keeps the others from hearing it.
 */
export async function tell<K extends "signedUp" | "decided" | "notice" | "sessionsEnded">(event: K, ...args: Parameters<Listeners[K]>): Promise<void> {
  await Promise.all(
    wiring().listeners[event].map(async ({ name, run }) => {
      try {
        await (run as (...a: Parameters<Listeners[K]>) => Promise<void>)(...args);
      } catch (error) {
        console.error(`${name} (${event}) failed`, error);
      }
    }),
  );
}
