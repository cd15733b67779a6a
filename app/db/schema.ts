// Shortbeat's tables, one file per part of the product under app/db/tables/ (their banners say
// which). Field names follow product-spec.md section 3; what accounts need (users, sessions, tokens,
// audit, outbox, settings) is added around them. Times are ISO-8601 UTC strings; booleans are 0/1
// integers; ids are UUIDs unless noted. drizzle-kit reads this file (drizzle.config.ts) and every
// module imports its tables from here.
export * from "./tables/shared";
export * from "./tables/accounts";
export * from "./tables/agencies";
export * from "./tables/notifications";
export * from "./tables/channels";
export * from "./tables/music";
export * from "./tables/payments";
export * from "./tables/chat";
export * from "./tables/thumbnails";
export * from "./tables/agreements";
export * from "./tables/campaigns";
export * from "./tables/growth";
export * from "./tables/clipping";
export * from "./tables/revenue-reports";
