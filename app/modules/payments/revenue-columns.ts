// The shapes of a revenue file and a column mapping (docs/decisions/0221): client-safe and light, for
// the admin's screens (revenue-csv.ts, which reads files with papaparse, re-exports them).

export type RevenueFormat = "shortbeat" | "youtube" | "mapped";

/** Which column (by position in the header; -1 for none) holds each value of a mapped file. */
export type ColumnMapping = { period: number; channel: number; creator: number; video: number; amount: number; currency: number };
export const MAPPING_ROLES = ["period", "channel", "creator", "video", "amount", "currency"] as const;
