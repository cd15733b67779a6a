// The clipping domain's facade (docs/decisions/0150-0153, 0205): clipper invitations (create,
// accept, approve), clipper links (revoke, splits),
// the creator's source folder (multipart uploads to R2, signed downloads checked at each request),
// clips, and what the revenue import needs to split clip revenue.
export * from "./clips.server";
export * from "./invitations.server";
export * from "./invitation-accept.server";
export { INVITATION_EMAIL_LIMIT, INVITATION_LIMIT, INVITATION_TTL_MS, invitationCodeOf, invitationLink } from "./invitation-codes.server";
export * from "./invitation-lists.server";
export * from "./invite-cookie.server";
export * from "./links.server";
export * from "./page.server";
export * from "./sources.server";
export * from "./privacy.server";
