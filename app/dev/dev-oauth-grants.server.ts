import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { randomToken } from "~/platform/crypto.server";
import { env } from "~/platform/env.server";
import type { StandInAccount } from "./dev-oauth-catalogue.server";

// The stand-in identity provider's grants (app/dev/dev-oauth.server.ts): one-time authorization
// codes with their PKCE challenge, access and refresh tokens in KV under devoauth:*, the bearer
// check, and the token endpoint's outage switch.

export type CodeRecord = {
  account: StandInAccount;
  challenge: string;
  method: string;
  redirectUri: string;
  clientId: string;
  scope: string;
};
// rt: the refresh token an access token came from, so revoking the grant ends both (as Google does).
export type TokenRecord = { account: StandInAccount; scope: string; rt?: string };

export const kv = () => env.RATE_LIMITS;

export function s256(verifier: string): string {
  return encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
}

/** Issues an authorization code for the chosen account (the picker's POST). */
export async function issueCode(params: URLSearchParams, account: StandInAccount): Promise<string> {
  const code = randomToken();
  const record: CodeRecord = {
    account,
    challenge: params.get("code_challenge") ?? "",
    method: params.get("code_challenge_method") ?? "",
    redirectUri: params.get("redirect_uri") ?? "",
    clientId: params.get("client_id") ?? "",
    scope: params.get("scope") ?? "",
  };
  await kv().put(`devoauth:code:${code}`, JSON.stringify(record), { expirationTtl: 600 });
  return code;
}

export function json(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

export async function issueTokens(account: StandInAccount, scope: string) {
  const accessToken = randomToken();
  const refreshToken = randomToken();
  const record: TokenRecord = { account, scope };
  await Promise.all([
    kv().put(`devoauth:at:${accessToken}`, JSON.stringify({ ...record, rt: refreshToken }), { expirationTtl: 3600 }),
    kv().put(`devoauth:rt:${refreshToken}`, JSON.stringify(record), { expirationTtl: 60 * 60 * 24 * 30 }),
  ]);
  return json({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, refresh_token: refreshToken, scope });
}

export async function bearer(request: Request): Promise<TokenRecord | null> {
  const token = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
  if (!token) return null;
  const raw = await kv().get(`devoauth:at:${token}`);
  if (!raw) return null;
  const record = JSON.parse(raw) as TokenRecord;
  // A revoked grant (refresh token gone) also ends the access tokens issued from it.
  if (record.rt && !(await kv().get(`devoauth:rt:${record.rt}`))) return null;
  return record;
}

export const TOKEN_OUTAGE_KEY = "devoauth:token-outage";

/** Takes the stand-in token endpoint down (503) or brings it back. */
export async function setStandInTokenOutage(down: boolean): Promise<void> {
  if (down) await kv().put(TOKEN_OUTAGE_KEY, "1", { expirationTtl: 3600 });
  else await kv().delete(TOKEN_OUTAGE_KEY);
}

/**
 * A grant for `account` as the code exchange issues it (tests and factories that link a channel
 * without the browser round trip): the access and refresh tokens, valid at the stand-in.
 */
export async function issueStandInGrant(account: StandInAccount, scope = "https://www.googleapis.com/auth/youtube.readonly") {
  const res = await issueTokens(account, scope);
  return (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
}
