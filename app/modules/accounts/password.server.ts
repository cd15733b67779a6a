import Argon2, { Argon2Type, Argon2Version } from "@phi-ag/argon2";
// Workers refuse to compile Wasm at run time; it must be imported as a module.
import argon2Wasm from "@phi-ag/argon2/argon2.wasm?module";
import { ARGON2_PARAMS, needsRehash } from "./password-policy";

let argon2: Argon2 | null = null;

async function instance(): Promise<Argon2> {
  if (!argon2) {
    const wasmInstance = await WebAssembly.instantiate(argon2Wasm as WebAssembly.Module, {});
    argon2 = new Argon2(wasmInstance);
  }
  return argon2;
}

let hashesComputed = 0;

/**
 * How many password hashes this isolate has computed. Lets a test prove that a path paid for a
 * hash (in workerd the clock stands still while code runs, so timing cannot show it).
 */
export function passwordHashesComputed(): number {
  return hashesComputed;
}

export async function hashPassword(password: string): Promise<string> {
  hashesComputed += 1;
  const a = await instance();
  return a.hash(password, {
    ...ARGON2_PARAMS,
    type: Argon2Type.Argon2id,
    version: Argon2Version.Version13,
  }).encoded;
}

export async function verifyPassword(encoded: string, password: string): Promise<{ valid: boolean; needsRehash: boolean }> {
  const a = await instance();
  const result = a.tryVerify(encoded, password, Argon2Type.Argon2id);
  return { valid: result.success, needsRehash: result.success && needsRehash(encoded) };
}

// A fixed hash verified against when the account does not exist, so a sign-in for an unknown
// e-mail costs as much as one for a known e-mail and the timing reveals nothing.
let dummyHash: string | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= await hashPassword("shortbeat-timing-equalizer");
  await verifyPassword(dummyHash, password);
}
