// Worker-test factories: users of every kind, signed in through a real D1 session.
import { env } from "cloudflare:workers";
import { beforeAll } from "vitest";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "~/modules/accounts/accounts.server";

export type UserKind = "pending" | "rejected" | "banned" | "creator" | "clipper" | "partner" | "agency" | "admin";

export const ALL_KINDS: UserKind[] = ["pending", "rejected", "banned", "creator", "clipper", "partner", "agency", "admin"];

export type TestUser = { id: string; email: string; creatorId: string; cookie: string; token: string; agencyId?: string };

let counter = 0;

/** A password hash that no password matches; tests that sign in with a password set their own. */
const UNUSABLE_HASH = "$argon2id$v=19$m=19456,t=2,p=1$dW51c2FibGU$dW51c2FibGUtaGFzaC1mb3ItdGVzdHMtb25seQ";

export async function createUser(
  kind: UserKind,
  opts: { email?: string; fullName?: string; passwordHash?: string; agencyId?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const id = crypto.randomUUID();
  const email = opts.email ?? `${kind}-${counter}-${id.slice(0, 6)}@example.com`;
  const creatorId = `T${counter}${id.slice(0, 5)}`.toUpperCase();
  const approval = kind === "pending" ? "pending" : kind === "rejected" ? "rejected" : "approved";
  const statements: D1PreparedStatement[] = [
    env.DB.prepare("INSERT INTO users (id, email, email_verified_at, password_hash, user_metadata) VALUES (?, ?, ?, ?, ?)").bind(
      id,
      email,
      new Date().toISOString(),
      opts.passwordHash ?? UNUSABLE_HASH,
      JSON.stringify({ full_name: opts.fullName ?? `Test ${kind}` }),
    ),
    env.DB.prepare(
      `INSERT INTO profiles (user_id, creator_id, full_name, approval_status, is_banned, ban_reason, is_music_partner)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      creatorId,
      opts.fullName ?? `Test ${kind}`,
      approval,
      kind === "banned" ? 1 : 0,
      kind === "banned" ? "Test ban" : null,
      kind === "partner" ? 1 : 0,
    ),
  ];
  if (kind === "admin") {
    statements.push(env.DB.prepare("INSERT INTO user_roles (id, user_id, role) VALUES (?, ?, 'admin')").bind(crypto.randomUUID(), id));
  }
  let agencyId = opts.agencyId;
  if (kind === "agency") {
    if (!agencyId) {
      agencyId = crypto.randomUUID();
      statements.push(
        env.DB.prepare(
          `INSERT INTO agencies (id, name, slug, contact_email, status, approval_status, created_by, user_id)
           VALUES (?, ?, ?, ?, 'active', 'approved', ?, ?)`,
        ).bind(agencyId, `Agency ${counter}`, `agency-${counter}-${id.slice(0, 6)}`, email, id, id),
      );
    }
    statements.push(
      env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, role, created_by) VALUES (?, ?, ?, 'manager', ?)").bind(
        crypto.randomUUID(),
        agencyId,
        id,
        id,
      ),
    );
  }
  if (kind === "clipper") {
    const creator = await createUser("creator");
    statements.push(
      // An approved clipper (docs/decisions/0205: a link is made by the creator's approval).
      env.DB.prepare("INSERT INTO clipper_links (id, creator_user_id, clipper_user_id, approved_at) VALUES (?, ?, ?, ?)").bind(
        crypto.randomUUID(),
        creator.id,
        id,
        new Date().toISOString(),
      ),
    );
  }
  await env.DB.batch(statements);
  const { token, cookie } = await signInAs(id);
  return { id, email, creatorId, cookie, token, agencyId };
}

/** An agency user (owner and first manager of its agency) and a creator added as a second manager of it. */
export async function createAgencyWithCoManager(): Promise<{ owner: TestUser; coManager: TestUser }> {
  const owner = await createUser("agency");
  const coManager = await createUser("creator");
  await env.DB.prepare("INSERT INTO agency_users (id, agency_id, user_id, created_by) VALUES (?, ?, ?, ?)")
    .bind(crypto.randomUUID(), owner.agencyId, coManager.id, owner.id)
    .run();
  return { owner, coManager };
}

/** A fresh D1 session for a user; returns the Cookie header value a browser would send. */
export async function signInAs(userId: string): Promise<{ token: string; cookie: string }> {
  const token = randomToken();
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?)")
    .bind(
      sha256Hex(token),
      userId,
      new Date(now + SESSION_IDLE_MS).toISOString(),
      new Date(now + SESSION_ABSOLUTE_MS).toISOString(),
      new Date(now).toISOString(),
    )
    .run();
  // Tests talk https://shortbeat.test, so the cookie has the __Host- prefix.
  return { token, cookie: `__Host-sb_session=${token}` };
}

/**
 * A user of `kind` created before the tests of the enclosing describe block (or file), shared by
 * them: the object is filled in by that beforeAll, so read its fields inside the tests.
 */
export function userBeforeAll(kind: UserKind): TestUser {
  const user = {} as TestUser;
  beforeAll(async () => {
    Object.assign(user, await createUser(kind));
  });
  return user;
}
