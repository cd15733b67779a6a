// The agencies module's public surface: other modules and routes import from here (or from
// guards.server.ts), never from the files behind it. See docs/how-a-request-flows.md.
export * from "./directory.server";
export * from "./labels.server";
export * from "./signup-lookups.server";
export { managedActiveAgencyIds } from "./access.server";
export * from "./applications.server";
export * from "./dashboard.server";
export * from "./review.server";
export { acceptInvitation, invitationView, type InvitationView } from "./invitations.server";
export * from "./privacy.server";
