// The accounts module's public surface: other modules and routes import from here (or from
// guards.server.ts), never from the files behind it. See docs/how-a-request-flows.md.
export * from "./account-tokens.server";
export * from "./audience.server";
export * from "./auth-actions.server";
export * from "./auth.server";
export * from "./pending-accounts.server";
export * from "./csp-reports.server";
export * from "./deletion.server";
export * from "./directory.server";
export * from "./email-settings.server";
export * from "./finish-sign-up.server";
export * from "./forms.server";
export * from "./google.server";
export * from "./growth-queries.server";
export * from "./moderation.server";
export * from "./user-list.server";
export * from "./outcomes.server";
export * from "./password.server";
export * from "./password-change.server";
export * from "./people-queries.server";
export * from "./phone.server";
export * from "./profile.server";
export * from "./session.server";
export * from "./session-records.server";
export * from "./shell.server";
export * from "./socket-sessions.server";
export * from "./term.server";
