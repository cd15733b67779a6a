import { data, redirect, type RouterContextProvider } from "react-router";
import { AUDITED_PATHS, isApproved, type Viewer } from "~/lib/permissions";
import { audit } from "~/platform/audit.server";
import { bannedMessage } from "./schema";
import { clearSessionCookie, endAllSessions, getSessionUser, type SessionUser } from "./session.server";
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

/** A banned user is signed out everywhere and sent to /auth. */
async function throwBanned(request: Request, user: SessionUser): Promise<never> {
  await endAllSessions(user.id);
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  headers.append(
    "Set-Cookie",
    await setToastCookie(request, {
      type: "error",
      title: "Account banned",
      description: bannedMessage(user.banReason),
    }),
  );
  throw redirect("/auth", { headers });
}

export async function getOptionalUser({ request, context }: GuardArgs): Promise<SessionUser | null> {
  return getSessionUser(request, context);
}

/** Sign-in and sign-up screens: a signed-in (not banned) visitor goes to the dashboard instead. */
export async function requireSignedOut(args: GuardArgs): Promise<void> {
  const user = await getSessionUser(args.request, args.context);
  if (user && !user.isBanned) throw redirect("/dashboard");
}

/** Sign-in only (settings, profile). */
export async function requireUser(args: GuardArgs): Promise<SessionUser> {
  const user = await getSessionUser(args.request, args.context);
  if (!user) throw redirect(signInUrl(args.request));
  if (user.isBanned) await throwBanned(args.request, user);
  return user;
}

/** Sign-in plus approval (admins bypass approval). */
export async function requireApprovedUser(args: GuardArgs): Promise<SessionUser> {
  const user = await requireUser(args);
  if (isApproved(viewerOf(user))) return user;
  const path = pathOf(args.request);
  if ((AUDITED_PATHS as readonly string[]).includes(path)) {
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
  throw redirect("/pending-approval");
}

/** Admins only: 'Authentication Required' for anonymous, 'Access Denied' for everyone else. */
export async function requireAdmin(args: GuardArgs): Promise<SessionUser> {
  const user = await getSessionUser(args.request, args.context);
  if (!user) {
    throw await redirectWithToast(args.request, "/auth", {
      type: "error",
      title: "Authentication Required",
      description: "Please sign in to access this area.",
    });
  }
  if (user.isBanned) await throwBanned(args.request, user);
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

/** Approved music partners (and admins). */
export async function requireMusicPartner(args: GuardArgs): Promise<SessionUser> {
  const user = await requireApprovedUser(args);
  if (user.isMusicPartner || user.isAdmin) return user;
  throw await redirectWithToast(args.request, "/dashboard", {
    type: "error",
    title: "Access Denied",
    description: "Music partner access required to access this area.",
  });
}

/** For resource routes: 401/403 JSON instead of redirects. */
export async function requireApiUser(args: GuardArgs, opts: { approved?: boolean; admin?: boolean } = {}) {
  const user = await getSessionUser(args.request, args.context);
  if (!user || user.isBanned) throw data({ error: "Auth session missing!" }, { status: 401 });
  if (opts.admin && !user.isAdmin) throw data({ error: "Access Denied" }, { status: 403 });
  if (opts.approved && !isApproved(viewerOf(user))) throw data({ error: "Approval required" }, { status: 403 });
  return user;
}

/** Greeting name: profile full name, else metadata full_name, else the e-mail's local part, else 'Creator'. */
export function greetingName(user: Pick<SessionUser, "fullName" | "metadataFullName" | "email">): string {
  return user.fullName?.trim() || user.metadataFullName?.trim() || user.email?.split("@")[0]?.trim() || "Creator";
}
