import { data, redirect, type RouterContextProvider } from "react-router";
import { AUDITED_PATHS, isApproved, type Viewer } from "~/lib/permissions";
import { audit } from "~/platform/audit.server";
import { FINISH_SIGN_UP_PATH } from "./finish-sign-up.server";
import { bannedMessage } from "./schema";
import { clearSessionCookie } from "./session-cookie.server";
import { bannedSignOutNotice, getSessionUser } from "./session-request.server";
import { endSessions, type SessionUser } from "./session.server";
import { redirectWithToast, setToastCookie } from "~/platform/toast.server";

// One guard per loader and action. Each returns the user it proved or throws the redirect or
// 403 response. Every loader and action of a guarded route calls one, also for .data requests.

export type GuardArgs = { request: Request; context: Readonly<RouterContextProvider> };

export function viewerOf(user: SessionUser): Viewer {
  return {
    isAdmin: user.isAdmin,
    approvalStatus: user.approvalStatus,
    isBanned: user.isBanned,
    isMusicPartner: user.isMusicPartner,
    hasActiveAgency: user.hasActiveAgency,
  };
}

function pathOf(request: Request): string {
  const url = new URL(request.url);
  return url.pathname.replace(/\.data$/, "").replace(/^\/_$/, "/") || "/";
}

function signInUrl(request: Request): string {
  const url = new URL(request.url);
  const path = pathOf(request);
  const back = path + (url.search && !url.searchParams.has("_routes") ? url.search : "");
  return path === "/" || path === "/dashboard" ? "/auth" : `/auth?redirectTo=${encodeURIComponent(back)}`;
}

/** The toast of a banned user sent to /auth: 'Your account has been banned: <reason>'. */
const bannedToast = (description: string) => ({ type: "error" as const, title: "Account banned", description });

/** A banned user is signed out everywhere and sent to /auth, told why. */
async function throwBanned(request: Request, user: SessionUser): Promise<never> {
  await endSessions({ userId: user.id, reason: "banned", scope: "all" });
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  headers.append("Set-Cookie", await setToastCookie(request, bannedToast(bannedMessage(user.banReason))));
  throw redirect("/auth", { headers });
}

/**
 * No signed-in user. A browser whose session was ended by a ban (it still carries the cookie; this
 * response clears it) goes to /auth told why; anyone else gets `otherwise`.
 */
async function signedOut(args: GuardArgs, otherwise: () => Promise<never>): Promise<never> {
  const banned = await bannedSignOutNotice(args.request, args.context);
  if (banned) throw await redirectWithToast(args.request, "/auth", bannedToast(banned), { headers: { "Set-Cookie": clearSessionCookie(args.request) } });
  return otherwise();
}

export async function getOptionalUser({ request, context }: GuardArgs): Promise<SessionUser | null> {
  return getSessionUser(request, context);
}

/** Sign-in and sign-up screens: a signed-in (not banned) visitor goes to the dashboard instead. */
export async function requireSignedOut(args: GuardArgs): Promise<void> {
  const user = await getSessionUser(args.request, args.context);
  if (user && !user.isBanned) throw redirect("/dashboard");
  if (user) return;
  // The session was ended by a ban: the same screen again, with the ban's reason, once (this
  // answer clears the cookie that told it).
  const banned = await bannedSignOutNotice(args.request, args.context);
  if (banned) {
    const url = new URL(args.request.url);
    url.searchParams.delete("_routes");
    throw await redirectWithToast(args.request, pathOf(args.request) + url.search, bannedToast(banned), {
      headers: { "Set-Cookie": clearSessionCookie(args.request) },
    });
  }
}

/** Where an account waiting out its deletion grace period is sent: it can keep the account or sign out (docs/decisions/0213). */
export const ACCOUNT_DELETION_PATH = "/account-deletion";

/** An account scheduled for deletion is frozen: every guarded page sends it to the page that offers to cancel. */
function throwIfDeletionPending(user: SessionUser): void {
  if (user.deletionDueAt) throw redirect(ACCOUNT_DELETION_PATH);
}

/** A Google sign-up without its details yet goes to give them first (docs/decisions/0324). */
function throwIfSignUpUnfinished(user: SessionUser): void {
  if (user.signUpDetailsMissing) throw redirect(FINISH_SIGN_UP_PATH);
}

/** Signed in, not banned, not waiting out a deletion. */
async function requireSignedIn(args: GuardArgs): Promise<SessionUser> {
  const user = await getSessionUser(args.request, args.context);
  if (!user) {
    return signedOut(args, () => {
      throw redirect(signInUrl(args.request));
    });
  }
  if (user.isBanned) await throwBanned(args.request, user);
  throwIfDeletionPending(user);
  return user;
}

/** Sign-in only (settings, profile). */
export async function requireUser(args: GuardArgs): Promise<SessionUser> {
  const user = await requireSignedIn(args);
  throwIfSignUpUnfinished(user);
  return user;
}

/** /auth/finish-sign-up: a signed-in Google sign-up that has not given its details (anyone else goes to the dashboard). */
export async function requireUnfinishedSignUp(args: GuardArgs): Promise<SessionUser> {
  const user = await requireSignedIn(args);
  if (!user.signUpDetailsMissing) throw redirect("/dashboard");
  return user;
}

/** /account-deletion: a signed-in account waiting out its deletion grace period (anyone else goes where they belong). */
export async function requirePendingDeletion(args: GuardArgs): Promise<SessionUser & { deletionDueAt: string }> {
  const user = await getSessionUser(args.request, args.context);
  if (!user) {
    return signedOut(args, () => {
      throw redirect("/auth");
    });
  }
  if (user.isBanned) await throwBanned(args.request, user);
  if (!user.deletionDueAt) throw redirect("/dashboard");
  return user as SessionUser & { deletionDueAt: string };
}

/**
 * Sign-in plus approval (admins bypass approval). `audit`: an unapproved attempt writes the spec's
 * unauthorized-access row on this path too (actions outside AUDITED_PATHS that change something,
 * e.g. taking a music licence; docs/decisions/0116).
 */
export async function requireApprovedUser(args: GuardArgs, opts: { audit?: boolean } = {}): Promise<SessionUser> {
  // Not requireUser: an unfinished sign-up is unapproved too, and its attempt is recorded like any other.
  const user = await requireSignedIn(args);
  if (isApproved(viewerOf(user))) return user;
  const path = pathOf(args.request);
  if (opts.audit || (AUDITED_PATHS as readonly string[]).includes(path)) {
    await audit({
      eventType: "unauthorized_access_attempt",
      severity: "high",
      userId: user.id,
      targetUserId: user.id,
      request: args.request,
      details: {
        path,
        user_id: user.id,
        approval_status: user.approvalStatus,
        concern: "unapproved user visited a guarded path",
      },
    });
  }
  throwIfSignUpUnfinished(user);
  throw redirect("/pending-approval");
}

/** Admins only: 'Authentication Required' for anonymous, 'Access Denied' for everyone else. */
export async function requireAdmin(args: GuardArgs): Promise<SessionUser> {
  const user = await getSessionUser(args.request, args.context);
  if (!user) {
    return signedOut(args, async () => {
      throw await redirectWithToast(args.request, "/auth", {
        type: "error",
        title: "Authentication Required",
        description: "Please sign in to access this area.",
      });
    });
  }
  if (user.isBanned) await throwBanned(args.request, user);
  throwIfDeletionPending(user);
  if (!user.isAdmin) {
    await audit({
      eventType: "admin_access_denied",
      severity: "medium",
      userId: user.id,
      request: args.request,
      details: { path: pathOf(args.request) },
    });
    throw await redirectWithToast(args.request, "/dashboard", {
      type: "error",
      title: "Access Denied",
      description: "Admin privileges required to access this area.",
    });
  }
  return user;
}

/** Approved music partners only: an admin without the partner flag is refused like any non-partner (docs/decisions/0070). */
export async function requireMusicPartner(args: GuardArgs): Promise<SessionUser> {
  const user = await requireApprovedUser(args);
  if (user.isMusicPartner) return user;
  throw await redirectWithToast(args.request, "/dashboard", {
    type: "error",
    title: "Access Denied",
    description: "Music partner access required to access this area.",
  });
}

/**
 * For resource routes: 401/403 JSON instead of redirects. An account in its deletion grace period
 * is refused, except where `duringDeletionGrace` says the route is one it keeps: the copy of its
 * data, until the deletion runs (docs/decisions/0292).
 */
export async function requireApiUser(args: GuardArgs, opts: { approved?: boolean; admin?: boolean; duringDeletionGrace?: boolean } = {}) {
  const user = await getSessionUser(args.request, args.context);
  if (!user || user.isBanned || (user.deletionDueAt && !opts.duringDeletionGrace)) throw data({ error: "Auth session missing!" }, { status: 401 });
  if (opts.admin && !user.isAdmin) throw data({ error: "Access Denied" }, { status: 403 });
  if (opts.approved && !isApproved(viewerOf(user))) throw data({ error: "Approval required" }, { status: 403 });
  return user;
}

/** Greeting name: profile full name, else metadata full_name, else the e-mail's local part, else 'Creator'. */
export function greetingName(user: Pick<SessionUser, "fullName" | "metadataFullName" | "email">): string {
  return user.fullName?.trim() || user.metadataFullName?.trim() || user.email?.split("@")[0]?.trim() || "Creator";
}
