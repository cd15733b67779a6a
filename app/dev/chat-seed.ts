// Demo community chat (issue 17): the rooms 'general' and 'announcements' (admins post there) and
// a few messages, numbered 1, 2, 3 … per room as the room's object would (its storage is empty, so
// it continues after the newest seq in D1). Fixed ids and INSERT OR IGNORE: idempotent.

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

export const CHAT_SEED_ROOMS = { general: uuid(6000), announcements: uuid(6001) };

export function chatSeed({
  db,
  adminId,
  creatorId,
  clipperId,
  now = Date.now(),
}: {
  db: D1Database;
  adminId: string;
  creatorId: string;
  clipperId: string;
  now?: number;
}): D1PreparedStatement[] {
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const rooms = [
    { id: CHAT_SEED_ROOMS.general, slug: "general", name: "general", description: "Say hello, share tips and ask questions.", kind: "general", position: 1 },
    {
      id: CHAT_SEED_ROOMS.announcements,
      slug: "announcements",
      name: "announcements",
      description: "News from the Shortbeat team. Only admins post here.",
      kind: "announcements",
      position: 2,
    },
  ];
  const messages = [
    {
      n: 1,
      room: CHAT_SEED_ROOMS.announcements,
      user: adminId,
      body: "Welcome to the Shortbeat community chat! Payouts go out around the 18th of each month.",
      ago: 2880,
    },
    { n: 1, room: CHAT_SEED_ROOMS.general, user: adminId, body: "Hi everyone, this is the place to swap tips. Be kind and keep it on topic.", ago: 1440 },
    { n: 2, room: CHAT_SEED_ROOMS.general, user: creatorId, body: "Hello! Has anyone tried the new lo-fi tracks in the music library?", ago: 180 },
    {
      n: 3,
      room: CHAT_SEED_ROOMS.general,
      user: clipperId,
      body: "Yes, the chill ones work great for tutorials. My last clip: https://example.com/clips/42",
      ago: 120,
    },
    { n: 4, room: CHAT_SEED_ROOMS.general, user: creatorId, body: "Nice, thanks for the tip!", ago: 60 },
  ];
  return [
    ...rooms.map((r) =>
      db
        .prepare(
          `INSERT OR IGNORE INTO chat_rooms (id, slug, name, description, kind, position, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(r.id, r.slug, r.name, r.description, r.kind, r.position, adminId, at(4320), at(4320)),
    ),
    ...messages.map((m, i) =>
      db
        .prepare(`INSERT OR IGNORE INTO chat_messages (id, room_id, seq, user_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
        .bind(uuid(6100 + i), m.room, m.n, m.user, m.body, at(m.ago)),
    ),
  ];
}
