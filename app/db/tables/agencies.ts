import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./shared";
import { agencies, users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Agencies
// ---------------------------------------------------------------------------------------------

export const agencyUsers = sqliteTable(
  "agency_users",
  {
    id: text("id").primaryKey(),
    agencyId: text("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull().default("manager"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("agency_users_agency_user_unique").on(t.agencyId, t.userId), index("agency_users_user_idx").on(t.userId)],
);

export const agencySignupTokens = sqliteTable(
  "agency_signup_tokens",
  {
    id: text("id").primaryKey(),
    agencyId: text("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("agency_signup_tokens_token_unique").on(t.token), index("agency_signup_tokens_agency_idx").on(t.agencyId, t.createdAt)],
);

// An invitation to manage an agency, sent to an e-mail address whether or not an account uses it
// (docs/decisions/0065). Only the SHA-256 of the link's token is stored; accepting consumes it
// once (guarded update on accepted_at). One pending invitation per agency and address.
export const agencyManagerInvitations = sqliteTable(
  "agency_manager_invitations",
  {
    id: text("id").primaryKey(),
    agencyId: text("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("agency_manager_invitations_token_unique").on(t.tokenHash),
    uniqueIndex("agency_manager_invitations_one_pending").on(t.agencyId, t.email).where(sql`accepted_at is null`),
  ],
);
