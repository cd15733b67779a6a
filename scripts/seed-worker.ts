// The demo seed's own Worker: scripts/setup-local.mjs bundles it and runs it inside workerd
// (Miniflare) against the local D1 database and R2 buckets on disk, so every row and every megabyte
// of demo audio is written inside workerd — not sent, call by call, through wrangler's platform
// proxy, whose socket dropped on a busy machine (issue 26, docs/decisions/0191). The password hash
// is computed by the script (argon2 in Node) and handed over in a header: the demo accounts share it.
// The seed's modules are loaded by the request, not at start-up: their top-level code reads the
// clock (dates relative to today), which a Worker's global scope does not run, and composes the
// demo melodies, which is more work than start-up allows.

import { Mp3Encoder } from "@breezystack/lamejs";
import { concatBytes } from "../app/lib/png";

type SeedEnv = { DB: D1Database; MEDIA: R2Bucket };

/**
 * The demo tracks' listening previews (docs/decisions/0270, 0289): mono MP3 at the WAV's own rate
 * (16–22 kHz), 64 kbit/s, a quarter of the WAV's size or less; the same LAME (JavaScript) the
 * server's preview job uses (app/modules/music/preview.server.ts), here in the seed's own Worker.
 */
async function encodeMp3(samples: Float32Array, sampleRate: number): Promise<Uint8Array> {
  const encoder = new Mp3Encoder(1, sampleRate, 64);
  const pcm = Int16Array.from(samples, (s) => Math.max(-32768, Math.min(32767, Math.round(s * 0x8000))));
  const parts: Uint8Array[] = [];
  for (let start = 0; start < pcm.length; start += 1152 * 64) parts.push(encoder.encodeBuffer(pcm.subarray(start, start + 1152 * 64)));
  parts.push(encoder.flush());
  return concatBytes(parts);
}

export default {
  async fetch(request: Request, env: SeedEnv): Promise<Response> {
    const passwordHash = request.headers.get("X-Demo-Password-Hash");
    if (!passwordHash) return new Response("X-Demo-Password-Hash is required", { status: 400 });
    try {
      const { seedDemoData } = await import("../app/dev/seed.server.ts");
      const result = await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword: async () => passwordHash, encodeMp3 });
      return Response.json(result);
    } catch (error) {
      const e = error as Error;
      return Response.json({ error: `${e.name}: ${e.message}`, stack: e.stack }, { status: 500 });
    }
  },
};
