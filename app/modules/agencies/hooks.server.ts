import type { Facts } from "~/platform/account-hooks.server";
import { managesActiveAgency } from "./directory.server";
import { agencyLabelOf } from "./labels.server";
import { agencyForSignUp } from "./signup-lookups.server";

// The facts about people this module owns, for the accounts and notifications modules below it
// (app/platform/account-hooks.server.ts). Wired by app/wiring.server.ts.
export const agencyFacts = { managesActiveAgency, agencyLabelOf, agencyForSignUp } satisfies Partial<Facts>;
