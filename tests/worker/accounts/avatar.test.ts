import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownAvatarKey } from "~/modules/accounts/accounts.server";
import { createUser } from "../../factories/users";
import { ORIGIN, fetchApp, passwordBeforeAll } from "../helpers";

// Issue 11 item 11: a replaced avatar is deleted from AVATARS once the new one is stored, so the
// bucket holds exactly one picture per user (the one the profile names).

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1]);

function upload(cookie: string) {
  const form = new FormData();
  form.set("intent", "avatar");
  form.set("avatar", new File([PNG as BlobPart], "me.png", { type: "image/png" }));
  return fetchApp("/profile", { method: "POST", body: form, headers: { Cookie: cookie, Origin: ORIGIN } });
}

async function keysOf(userId: string): Promise<string[]> {
  const listed = await env.AVATARS.list({ prefix: `avatars/${userId}/` });
  return listed.objects.map((o) => o.key);
}

async function avatarUrlOf(userId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT avatar_url FROM profiles WHERE user_id = ?").bind(userId).first<{ avatar_url: string | null }>();
  return row?.avatar_url ?? null;
}

passwordBeforeAll();

describe("avatar replacement", () => {
  it("after 3 uploads the bucket holds exactly one object for the user: the one the profile shows", async () => {
    const user = await createUser("creator");
    const neighbour = await createUser("creator");
    expect((await upload(neighbour.cookie)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await upload(user.cookie)).status).toBe(200);
    const keys = await keysOf(user.id);
    expect(keys).toHaveLength(1);
    expect(await avatarUrlOf(user.id)).toBe(`/media/avatars/${keys[0]}`);
    expect((await fetchApp(`/media/avatars/${keys[0]}`)).status).toBe(200);
    // Another user's picture is untouched.
    expect(await keysOf(neighbour.id)).toHaveLength(1);
  });

  it("parallel uploads leave one object, the one the profile names; the others are refused", async () => {
    const user = await createUser("creator");
    const answers = await Promise.all([upload(user.cookie), upload(user.cookie), upload(user.cookie)]);
    expect(answers.map((r) => r.status)).toContain(200);
    for (const r of answers) expect([200, 409]).toContain(r.status);
    const keys = await keysOf(user.id);
    expect(keys).toHaveLength(1);
    expect(await avatarUrlOf(user.id)).toBe(`/media/avatars/${keys[0]}`);
  });

  it("never deletes what is not the user's own upload (a Google picture, another user's folder)", async () => {
    const user = await createUser("creator");
    const other = await createUser("creator");
    expect(ownAvatarKey(user.id, "https://lh3.googleusercontent.com/a/photo.jpg")).toBeNull();
    expect(ownAvatarKey(user.id, `/media/avatars/avatars/${other.id}/x.png`)).toBeNull();
    expect(ownAvatarKey(user.id, `/media/avatars/avatars/${user.id}/../x.png`)).toBeNull();
    expect(ownAvatarKey(user.id, `/media/avatars/avatars/${user.id}/a%E0.png`)).toBeNull();
    expect(ownAvatarKey(user.id, `/media/avatars/avatars/${user.id}/a.png`)).toBe(`avatars/${user.id}/a.png`);

    await env.AVATARS.put(`avatars/${other.id}/keep.png`, PNG);
    await env.DB.prepare("UPDATE profiles SET avatar_url = ? WHERE user_id = ?").bind(`/media/avatars/avatars/${other.id}/keep.png`, user.id).run();
    expect((await upload(user.cookie)).status).toBe(200);
    expect(await env.AVATARS.head(`avatars/${other.id}/keep.png`)).not.toBeNull();
  });
});
