// The accounts module's public surface: other modules and routes import from here (or from
// guards.server.ts), never from the files behind it. See docs/how-a-request-flows.md.
export * from "./auth-actions.server";
export * from "./auth.server";
export * from "./directory.server";
export * from "./google.server";
export * from "./moderation.server";
export * from "./profile.server";
export * from "./session.server";
export * from "./shell.server";
