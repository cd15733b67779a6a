import type { Actor } from "~/lib/permissions";
import { personById } from "~/modules/accounts/accounts.server";
import { readCookie, serializeCookie } from "~/platform/cookies.server";
import { INVITATION_TTL_MS, invitationByCode, invitationCodeOf, refusalOf } from "./invitation-codes.server";
import type { PendingInvite } from "./types";

// The link kept for a visitor (signed in or not) until they can accept it on /clipping.

export const CLIPPER_INVITE_COOKIE = "sb_clipper_invite";

function inviteCookie(request: Request, code: string, maxAge: number): string {
  return serializeCookie(CLIPPER_INVITE_COOKIE, code, { maxAge, secure: new URL(request.url).protocol === "https:", path: "/" });
}

/** Keeps an invitation code for /clipping (7 days, like the invitation): set when its link is opened. */
export function keepInvitationCookie(request: Request, code: string): string {
  return inviteCookie(request, code, INVITATION_TTL_MS / 1000);
}

export function clearClipperInviteCookie(request: Request): string {
  return inviteCookie(request, "", 0);
}

/**
 * For /auth's loader: a signed-in visitor is sent to /dashboard (spec); when they came by a clipper
 * invitation link, the code is kept in a cookie for /clipping to offer. Rethrows `thrown`.
 */
export function keepClipperInvite(request: Request): (thrown: unknown) => never {
  return (thrown) => {
    const url = new URL(request.url);
    const code = invitationCodeOf(url.searchParams.get("ref") ?? "");
    const redirect = thrown instanceof Response && thrown.status >= 300 && thrown.status < 400;
    if (redirect && code && url.searchParams.get("clipper") === "1") thrown.headers.append("Set-Cookie", keepInvitationCookie(request, code));
    throw thrown;
  };
}

/** The invitation kept from a link, when this person can accept it now. */
export async function pendingInvite(actor: Actor, request: Request): Promise<PendingInvite | null> {
  const code = invitationCodeOf(readCookie(request, CLIPPER_INVITE_COOKIE) ?? "");
  const row = await invitationByCode(code);
  if (!row || !code || refusalOf(row, { id: actor.id, email: actor.email })) return null;
  const creator = await personById(row.creatorUserId);
  return { code, creatorName: creator?.fullName || "A creator" };
}
