import { auditStatement } from "~/platform/audit.server";
import { env } from "~/platform/env.server";
import { avatarUrl, checkUpload, putPublicImage, type ImageType } from "~/modules/media/media.server";

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_TYPES: readonly ImageType[] = ["image/png", "image/jpeg", "image/webp"];

export async function getProfile(userId: string) {
  return env.DB.prepare(
    `SELECT p.full_name, p.avatar_url, p.creator_id, p.approval_status, p.is_music_partner, u.email, u.created_at
     FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.user_id = ?`,
  )
    .bind(userId)
    .first<{
      full_name: string | null;
      avatar_url: string | null;
      creator_id: string;
      approval_status: string;
      is_music_partner: number;
      email: string;
      created_at: string;
    }>();
}

export async function updateProfileName(request: Request, userId: string, fullName: string) {
  await env.DB.batch([
    env.DB.prepare("UPDATE profiles SET full_name = ?, updated_at = ? WHERE user_id = ?").bind(fullName, new Date().toISOString(), userId),
    auditStatement({ eventType: "profile_updated", userId, targetUserId: userId, request, details: { field: "full_name" } }),
  ]);
}

/** Avatar upload: type checked by content, 2 MB cap, key made by the server, old file removed. */
export async function updateAvatar(request: Request, userId: string, file: File): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  const check = await checkUpload(file, AVATAR_TYPES, AVATAR_MAX_BYTES, "Avatar");
  if (!check.ok) return check;
  const previous = await env.DB.prepare("SELECT avatar_url FROM profiles WHERE user_id = ?").bind(userId).first<{ avatar_url: string | null }>();
  const key = await putPublicImage(file, check.type, `avatars/${userId}`);
  const url = avatarUrl(key);
  await env.DB.batch([
    env.DB.prepare("UPDATE profiles SET avatar_url = ?, updated_at = ? WHERE user_id = ?").bind(url, new Date().toISOString(), userId),
    auditStatement({ eventType: "profile_updated", userId, targetUserId: userId, request, details: { field: "avatar_url" } }),
  ]);
  const oldKey = previous?.avatar_url?.match(/(avatars\/[^?#]+)$/)?.[1];
  if (oldKey && oldKey.startsWith(`avatars/${userId}/`)) await env.AVATARS.delete(decodeURIComponent(oldKey));
  return { ok: true, url };
}
