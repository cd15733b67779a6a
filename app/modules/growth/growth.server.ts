// The Growth module's public surface (issue 18): routes, the accounts module (activity recording)
// and the Worker's scheduled handler import from here. See docs/how-a-request-flows.md.
//   activity.server.ts     activity per user per UTC day (recorded with the session's sliding-expiry write)
//   referrals.server.ts    /referrals: code, link, QR code, counts, referred people, bonus total
//   retention.server.ts    /user-retention: sign-ups, funnel, WAU, cohorts, inactive users, notify, CSV
//   aggregates.server.ts   the snapshot every retention panel reads, taken by the daily job
export { recordActivityQuery } from "./activity.server";
export * from "./referrals.server";
export { inactiveUsersCsv, notifyInactive, refreshRetention, retentionPage } from "./retention.server";
export { ensureDemoRetentionSnapshot, rebuildRetentionPeople, runRetentionAggregates } from "./aggregates.server";
export * from "./privacy.server";
