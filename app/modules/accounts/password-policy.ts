// Password hashing parameters: argon2id with OWASP's first recommended setting
// (m = 19 MiB, t = 2, p = 1). See docs/decisions/0004-password-hashing.md.
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1, hashLength: 32 } as const;

/** Reads m, t, p from a PHC string ($argon2id$v=19$m=19456,t=2,p=1$salt$hash). */
export function parseArgon2Params(encoded: string): { type: string; m: number; t: number; p: number } | null {
  const [, type, m, t, p] = /^\$(argon2id|argon2i|argon2d)\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(encoded) ?? [];
  if (!type) return null;
  return { type, m: Number(m), t: Number(t), p: Number(p) };
}

/** True when a stored hash was made with other settings than today's and should be redone. */
export function needsRehash(encoded: string): boolean {
  const params = parseArgon2Params(encoded);
  if (!params) return true;
  return params.type !== "argon2id" || params.m !== ARGON2_PARAMS.memoryCost || params.t !== ARGON2_PARAMS.timeCost || params.p !== ARGON2_PARAMS.parallelism;
}
