import { and, eq, isNull } from "drizzle-orm";
import { profiles, users } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { conflict, invalid } from "~/lib/errors";
import { authorize } from "~/lib/permissions";
import { oneLine } from "~/lib/sanitize";
import { avatarUrl, checkUpload, isValidKey, putPublicImage, type ImageType } from "~/modules/media/media.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { actorOf } from "./directory.server";
import type { SessionUser } from "./session.server";

// The signed-in user's own profile: what the profile page shows, the name and the picture.

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_TYPES: readonly ImageType[] = ["image/png", "image/jpeg", "image/webp"];

export type Profile = {
  fullName: string | null;
  avatarUrl: string | null;
  creatorId: string;
  approvalStatus: "pending" | "approved" | "rejected";
  isMusicPartner: boolean;
  email: string;
  createdAt: string;
};

export async function getProfile(user: SessionUser): Promise<Profile | null> {
  authorize(actorOf(user), "account", "read");
  const row = await db()
    .select({
      ...columnsOf(profiles, "fullName", "avatarUrl", "creatorId", "approvalStatus", "isMusicPartner"),
      ...columnsOf(users, "email", "createdAt"),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.userId, user.id))
    .get();
  return row ?? null;
}

/** The account's rejection reason, shown on the pending page when the account was rejected. */
export async function rejectionReasonOf(user: SessionUser): Promise<string | null> {
  if (user.approvalStatus !== "rejected") return null;
  const row = await db().select({ reason: profiles.rejectionReason }).from(profiles).where(eq(profiles.userId, user.id)).get();
  return row?.reason ?? null;
}

export async function updateProfileName(request: Request, user: SessionUser, fullName: string): Promise<void> {
  authorize(actorOf(user), "account", "update");
  await db().batch([
    db()
      .update(profiles)
      .set({ fullName: oneLine(fullName), updatedAt: new Date().toISOString() })
      .where(eq(profiles.userId, user.id)),
    auditQuery({
      eventType: "profile_updated",
      userId: user.id,
      targetUserId: user.id,
      request,
      details: { field: "full_name" },
    }),
  ]);
}

/** The AVATARS key behind one of this user's avatar URLs (avatarUrl's inverse), or null (a Google picture, another user's folder). */
export function ownAvatarKey(userId: string, url: string | null | undefined): string | null {
  const base = avatarUrl("");
  if (!url?.startsWith(base)) return null;
  let key: string;
  try {
    key = url
      .slice(base.length)
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .join("/");
  } catch {
    return null;
  }
  return key.startsWith(`avatars/${userId}/`) && isValidKey(key) ? key : null;
}

/**
 * Avatar upload: type checked by content, 2 MB cap, key made by the server. The new picture
 * replaces the one the profile named when the upload began (guarded update); then the old file
 * is deleted. When another upload replaced it meanwhile, this one's file is deleted instead and
 * the upload is refused, so the bucket never keeps a file no profile names.
 */
export async function updateAvatar(request: Request, user: SessionUser, file: File): Promise<{ url: string }> {
  authorize(actorOf(user), "media", "uploadAvatar");
  const check = await checkUpload(file, AVATAR_TYPES, AVATAR_MAX_BYTES, "Avatar");
  if (!check.ok) throw invalid(check.error, { title: "Upload failed", fieldErrors: { avatar: check.error } });
  const previous = await db().select({ avatarUrl: profiles.avatarUrl }).from(profiles).where(eq(profiles.userId, user.id)).get();
  const before = previous?.avatarUrl ?? null;
  const key = await putPublicImage(file, check.type, `avatars/${user.id}`);
  const url = avatarUrl(key);
  try {
    await db().batch([
      db()
        .update(profiles)
        .set({ avatarUrl: url, updatedAt: new Date().toISOString() })
        .where(and(eq(profiles.userId, user.id), before === null ? isNull(profiles.avatarUrl) : eq(profiles.avatarUrl, before))),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "profile_updated",
        userId: user.id,
        targetUserId: user.id,
        request,
        details: { field: "avatar_url" },
      }),
    ]);
  } catch (error) {
    await env.AVATARS.delete(key);
    if (isPreconditionFailure(error)) {
      const message = "Your picture was changed meanwhile. Please try again.";
      throw conflict(message, { title: "Upload failed", fieldErrors: { avatar: message } });
    }
    throw error;
  }
  const oldKey = ownAvatarKey(user.id, before);
  if (oldKey && oldKey !== key) await env.AVATARS.delete(oldKey);
  return { url };
}
