import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { env } from "./env.server";

// Provider tokens at rest: AES-256-GCM with a key derived (HKDF-SHA-256) from the
// TOKEN_ENCRYPTION_KEY secret, a fresh random 96-bit IV per value, and the value's purpose as
// additional data, so a ciphertext copied into another row or column does not decrypt.
// Stored form: "v1.<base64 iv>.<base64 ciphertext+tag>". See docs/decisions/0030.

const VERSION = "v1";
const SALT = new TextEncoder().encode("shortbeat/token-encryption/v1");
const INFO = new TextEncoder().encode("youtube-channel-tokens");

let cached: { secret: string; key: Promise<CryptoKey> } | null = null;

function keyFor(secret: string): Promise<CryptoKey> {
  if (cached?.secret === secret) return cached.key;
  const key = (async () => {
    const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
    return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: SALT, info: INFO }, material, { name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]);
  })();
  cached = { secret, key };
  return key;
}

function secret(): string {
  const s = env.TOKEN_ENCRYPTION_KEY;
  // A missing or placeholder secret must never silently encrypt with a guessable key.
  if (!s || s === "generate" || s.length < 16) throw new Error("TOKEN_ENCRYPTION_KEY is not set (at least 16 characters).");
  return s;
}

export class TokenDecryptionError extends Error {}

/** Encrypts a token. `context` names what it is (e.g. "access:<channel row id>"). */
export async function encryptToken(plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    await keyFor(secret()),
    new TextEncoder().encode(plaintext),
  );
  return `${VERSION}.${encodeBase64(iv)}.${encodeBase64(new Uint8Array(sealed))}`;
}

/** Decrypts a value from encryptToken with the same context; throws TokenDecryptionError otherwise. */
export async function decryptToken(stored: string, context: string): Promise<string> {
  const [version, ivB64, dataB64] = stored.split(".");
  if (version !== VERSION || !ivB64 || !dataB64) throw new TokenDecryptionError("Unknown token format.");
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: new Uint8Array(decodeBase64(ivB64)), additionalData: new TextEncoder().encode(context) },
      await keyFor(secret()),
      new Uint8Array(decodeBase64(dataB64)),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new TokenDecryptionError("The stored token could not be decrypted.");
  }
}
