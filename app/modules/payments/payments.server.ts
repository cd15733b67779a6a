// The Payments module's public surface (issue 14, phase 1): routes and the Worker's scheduled
// handler import from here, never from the files behind it. See docs/how-a-request-flows.md.
//   imports.server.ts  the admin's revenue import (preview/stage, commit), funds received, finalize
//   payouts.server.ts  the payout-day job, marking payouts paid, the batch CSV
//   ledger.server.ts   what /payments shows, and its CSV
//   share.server.ts    the creator's share at a month (from the admin settings)
export * from "./imports.server";
export * from "./payouts.server";
export * from "./ledger.server";
