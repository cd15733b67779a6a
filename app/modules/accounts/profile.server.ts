import { eq } from "drizzle-orm";
import { profiles, users } from "~/db/schema";
import { invalid } from "~/lib/errors";
import { authorize } from "~/lib/permissions";
import { avatarUrl, checkUpload, putPublicImage, type ImageType } from "~/modules/media/media.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
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
      fullName: profiles.fullName,
      avatarUrl: profiles.avatarUrl,
      creatorId: profiles.creatorId,
      approvalStatus: profiles.approvalStatus,
      isMusicPartner: profiles.isMusicPartner,
      email: users.email,
      createdAt: users.createdAt,
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
    db().update(profiles).set({ fullName, updatedAt: new Date().toISOString() }).where(eq(profiles.userId, user.id)),
    auditQuery({
      eventType: "profile_updated",
      userId: user.id,
      targetUserId: user.id,
      request,
      details: { field: "full_name" },
    }),
  ]);
}

/** Avatar upload: type checked by content, 2 MB cap, key made by the server, old file removed. */
export async function updateAvatar(request: Request, user: SessionUser, file: File): Promise<{ url: string }> {
  authorize(actorOf(user), "media", "uploadAvatar");
  const check = await checkUpload(file, AVATAR_TYPES, AVATAR_MAX_BYTES, "Avatar");
  if (!check.ok) throw invalid(check.error, { title: "Upload failed", fieldErrors: { avatar: check.error } });
  const previous = await db().select({ avatarUrl: profiles.avatarUrl }).from(profiles).where(eq(profiles.userId, user.id)).get();
  const key = await putPublicImage(file, check.type, `avatars/${user.id}`);
  const url = avatarUrl(key);
  await db().batch([
    db().update(profiles).set({ avatarUrl: url, updatedAt: new Date().toISOString() }).where(eq(profiles.userId, user.id)),
    auditQuery({
      eventType: "profile_updated",
      userId: user.id,
      targetUserId: user.id,
      request,
      details: { field: "avatar_url" },
    }),
  ]);
  const oldKey = previous?.avatarUrl?.match(/(avatars\/[^?#]+)$/)?.[1];
  if (oldKey?.startsWith(`avatars/${user.id}/`)) await env.AVATARS.delete(decodeURIComponent(oldKey));
  return { url };
}
