// D1 round trips on music's hot paths: a signed-in /music and each Range request of the player's
// <audio> ride in the session lookup's batch (accounts alongsideSession, docs/decisions/0083);
// the public verification page reads a licence and its channels in one batch. Counted by
// wrapping the D1 sessions' batch and the statements' own execution for the length of one request.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { insertTrack } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { d1Calls } from "../d1-calls";
import { fetchApp, okText, withCookie } from "../helpers";

let creator: TestUser;
let pending: TestUser;
const trackId = crypto.randomUUID();
const AUDIO = Uint8Array.from({ length: 4000 }, (_, i) => i % 251);

/** D1 calls while `run` goes (../d1-calls). */
const roundTrips = async (run: () => Promise<unknown>): Promise<number> => (await d1Calls(run)).calls;

beforeAll(async () => {
  [creator, pending] = await Promise.all([createUser("creator"), createUser("pending")]);
  const audioKey = `music/audio/${trackId}.wav`;
  await env.MEDIA.put(audioKey, AUDIO, { httpMetadata: { contentType: "audio/wav" } });
  await insertTrack({
    id: trackId,
    title: "Round Trip Anthem",
    artist: "Batch Band",
    genre: "Pop",
    mood: "Happy",
    bpm: 120,
    durationSeconds: 30,
    audioKey,
    audioContentType: "audio/wav",
    audioSize: AUDIO.length,
    tags: "batch",
    peaks: "[1,2,3]",
  });
});

describe("music's hot paths: one D1 round trip", () => {
  it("a signed-in /music (search, page and count) is one round trip, and shows the page", async () => {
    let html = "";
    const calls = await roundTrips(async () => {
      html = await okText(fetchApp("/music?q=round%20trip", withCookie(creator.cookie)));
    });
    expect(html).toContain("Round Trip Anthem");
    expect(html).toContain("1 track");
    expect(calls).toBe(1);
  });

  it("a pending user is still refused /music (the guard decides; the batched rows are never shown)", async () => {
    const res = await fetchApp("/music?q=round%20trip", withCookie(pending.cookie));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/pending-approval");
    expect(await res.text()).not.toContain("Round Trip Anthem");
  });

  it("each Range request of the preview is one round trip; signed out it is still 401", async () => {
    let res: Response | null = null;
    const calls = await roundTrips(async () => {
      res = await fetchApp(`/music/audio/${trackId}`, withCookie(creator.cookie, { headers: { Range: "bytes=100-199" } }));
    });
    const answer = res as unknown as Response;
    expect(answer.status).toBe(206);
    expect(answer.headers.get("Content-Range")).toBe(`bytes 100-199/${AUDIO.length}`);
    expect(new Uint8Array(await answer.arrayBuffer())).toEqual(AUDIO.slice(100, 200));
    expect(calls).toBe(1);
    expect((await fetchApp(`/music/audio/${trackId}`, { headers: { Range: "bytes=0-9" } })).status).toBe(401);
    expect((await fetchApp(`/music/audio/${trackId}`, withCookie(pending.cookie, { headers: { Range: "bytes=0-9" } }))).status).toBe(403);
  });
});
