import { CodeChallengeMethod, OAuth2Client, OAuth2Tokens, generateCodeVerifier, generateState } from "arctic";
import { createCookie, redirect } from "react-router";
import { outboundFetch } from "./stand-in.server";
import { env } from "./env.server";
import { recordFailure, recordSuccessOnce } from "./service-status.server";
import { isSecureRequest } from "./toast.server";

// Authorization code + PKCE (S256) + state, with every endpoint a setting. Google sign-in and
// the YouTube channel link both use it. Locally the endpoints are the stand-in provider under
// /dev/oauth, which is called in-process (see providerFetch) so everything works offline.
// Google's token endpoint and userinfo answers are recorded here, where they are read, as the
// "google" service of the System status page (docs/decisions/0326): the OAuth client is the same
// for sign-in and the channel link. `invalid_grant` is one person's grant, not Google's error.

export type OAuthEndpoints = { authorize: string; token: string; userinfo: string; youtubeChannels: string };

export function endpoints(request: Request): OAuthEndpoints {
  const base = new URL(request.url).origin;
  const abs = (u: string | undefined, fallback: string) => new URL(u || fallback, base).toString();
  return {
    authorize: abs(env.GOOGLE_AUTHORIZE_URL, "https://accounts.google.com/o/oauth2/v2/auth"),
    token: abs(env.GOOGLE_TOKEN_URL, "https://oauth2.googleapis.com/token"),
    userinfo: abs(env.GOOGLE_USERINFO_URL, "https://openidconnect.googleapis.com/v1/userinfo"),
    youtubeChannels: abs(env.YOUTUBE_CHANNELS_URL, "https://www.googleapis.com/youtube/v3/channels"),
  };
}

export function oauthConfigured(): boolean {
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
}

function client(redirectUri: string) {
  return new OAuth2Client(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, redirectUri);
}

/** A signed, HttpOnly, short-lived cookie holding state, PKCE verifier and what must survive. */
function flowCookie(request: Request, name: string) {
  const secure = isSecureRequest(request);
  return createCookie(secure ? `__Host-${name}` : name, {
    httpOnly: true,
    secure,
    sameSite: "lax",
    path: "/",
    maxAge: 600,
    secrets: [env.COOKIE_SECRET || "shortbeat-local-cookie-secret"],
  });
}

type FlowState<T> = { state: string; verifier: string; redirectUri: string; payload: T };

/** The start of a flow: where to send the browser, and the cookie holding a fresh state and verifier. */
export type AuthorizationStart = { location: string; setCookie: string };

/** Starts the flow: the provider's authorization URL, with a fresh state and PKCE verifier kept in a cookie. */
export async function startAuthorization<T>(
  request: Request,
  opts: { cookieName: string; callbackPath: string; scopes: string[]; payload: T; params?: Record<string, string> },
): Promise<AuthorizationStart> {
  const state = generateState();
  const verifier = generateCodeVerifier();
  const redirectUri = new URL(opts.callbackPath, request.url).toString();
  const url = client(redirectUri).createAuthorizationURLWithPKCE(endpoints(request).authorize, state, CodeChallengeMethod.S256, verifier, opts.scopes);
  for (const [k, v] of Object.entries(opts.params ?? {})) url.searchParams.set(k, v);
  const cookie = flowCookie(request, opts.cookieName);
  const value: FlowState<T> = { state, verifier, redirectUri, payload: opts.payload };
  return { location: url.toString(), setCookie: await cookie.serialize(value) };
}

/** Starts the flow as a redirect to the provider (see startAuthorization). */
export async function beginAuthorization<T>(
  request: Request,
  opts: { cookieName: string; callbackPath: string; scopes: string[]; payload: T; params?: Record<string, string> },
): Promise<Response> {
  const { location, setCookie } = await startAuthorization(request, opts);
  return redirect(location, { headers: { "Set-Cookie": setCookie } });
}

/** The Set-Cookie value that removes a flow's cookie (the flow is single-use, whatever its outcome). */
export function clearFlowCookie(request: Request, cookieName: string): Promise<string> {
  return flowCookie(request, cookieName).serialize("", { maxAge: 0 });
}

/**
 * The provider refused the flow. `code` is the token endpoint's `error` when it named one: only
 * "invalid_grant" says the grant itself is gone (revoked, expired) — RFC 6749 §5.2.
 */
export class OAuthError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** The token endpoint could not be reached or answered 5xx/429 after the retries: nothing is known of the grant. */
export class TokenEndpointUnavailable extends OAuthError {
  constructor(message: string) {
    super(message, "temporarily_unavailable");
  }
}

/**
 * Finishes the flow on the callback: the state must match the cookie's (a missing or
 * mismatched state is refused), then the code is exchanged with the verifier.
 */
export async function completeAuthorization<T>(request: Request, cookieName: string): Promise<{ tokens: OAuth2Tokens; payload: T; clearCookie: string }> {
  const url = new URL(request.url);
  const cookie = flowCookie(request, cookieName);
  const clearCookie = await clearFlowCookie(request, cookieName);
  const flow = (await cookie.parse(request.headers.get("Cookie"))) as FlowState<T> | null;
  const error = url.searchParams.get("error");
  if (error) throw Object.assign(new OAuthError(error === "access_denied" ? "Access was denied." : error), { clearCookie });
  const code = url.searchParams.get("code");
  const state = url.searchParams.get("state");
  if (!flow || !state || !code || flow.state !== state) {
    throw Object.assign(new OAuthError("The sign-in request expired or did not match. Please try again."), { clearCookie });
  }
  const tokens = await exchangeCode(request, code, flow.verifier, flow.redirectUri);
  return { tokens, payload: flow.payload, clearCookie };
}

/** Attempts at the token endpoint when it cannot be reached or answers 5xx/429, and the waits between them. */
const TOKEN_ATTEMPTS = 3;
const TOKEN_BACKOFF_MS = [250, 1_000];

async function tokenRequest(request: Request, body: URLSearchParams): Promise<OAuth2Tokens> {
  const basic = btoa(`${encodeURIComponent(env.GOOGLE_CLIENT_ID)}:${encodeURIComponent(env.GOOGLE_CLIENT_SECRET)}`);
  let last = "";
  let lastCode: string | null = null;
  for (let attempt = 0; attempt < TOKEN_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, TOKEN_BACKOFF_MS[attempt - 1] ?? 1_000));
    let res: Response;
    try {
      res = await providerFetch(request, endpoints(request).token, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
          Authorization: `Basic ${basic}`,
        },
        body,
      });
    } catch (error) {
      last = `Google could not be reached: ${(error as Error).message}`;
      lastCode = null;
      continue;
    }
    // A server error or a rate limit says nothing about the grant: try again (decision 0303).
    if (res.status >= 500 || res.status === 429) {
      await res.body?.cancel();
      last = `Google's token endpoint answered HTTP ${res.status}`;
      lastCode = `HTTP ${res.status}`;
      continue;
    }
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok || typeof json.access_token !== "string") {
      const code = typeof json.error === "string" ? json.error : null;
      const reason = typeof json.error_description === "string" ? json.error_description : (code ?? `HTTP ${res.status}`);
      // invalid_grant: this person's code or refresh token (used, expired, revoked). Anything else
      // (invalid_client, unauthorized_client, redirect_uri_mismatch…) is our client's setup.
      if (code !== "invalid_grant") await recordFailure("google", code ?? `HTTP ${res.status}`, `Token endpoint: ${reason}`, request);
      throw new OAuthError(reason, code);
    }
    await recordSuccessOnce(request, "google");
    return new OAuth2Tokens(json);
  }
  await recordFailure("google", lastCode, last, request);
  throw new TokenEndpointUnavailable(last);
}

export function exchangeCode(request: Request, code: string, verifier: string, redirectUri: string) {
  return tokenRequest(
    request,
    new URLSearchParams({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: env.GOOGLE_CLIENT_ID,
    }),
  );
}

export function refreshAccessToken(request: Request, refreshToken: string) {
  return tokenRequest(request, new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: env.GOOGLE_CLIENT_ID }));
}

/**
 * fetch for provider endpoints, relative to the request: the local stand-in provider (/dev/oauth/*,
 * DEV_TOOLS only) is answered in-process by outboundFetch (stand-in.server.ts).
 */
export async function providerFetch(request: Request, url: string, init: RequestInit = {}): Promise<Response> {
  return outboundFetch(new Request(new URL(url, request.url), init));
}

export type GoogleProfile = { sub: string; email: string; email_verified: boolean; name: string | null; picture: string | null };

export async function fetchGoogleProfile(request: Request, accessToken: string): Promise<GoogleProfile> {
  let res: Response;
  try {
    res = await providerFetch(request, endpoints(request).userinfo, { headers: { Authorization: `Bearer ${accessToken}` } });
  } catch (error) {
    await recordFailure("google", null, `Userinfo could not be reached: ${(error as Error).message}`, request);
    throw error;
  }
  // The access token was issued a moment ago: a refusal here is Google's (or our endpoint setting's).
  if (!res.ok) {
    await recordFailure("google", `HTTP ${res.status}`, `Userinfo answered HTTP ${res.status}.`, request);
    throw new OAuthError(`Could not read the Google profile (HTTP ${res.status}).`);
  }
  await recordSuccessOnce(request, "google");
  const p = (await res.json()) as Record<string, unknown>;
  if (typeof p.sub !== "string" || typeof p.email !== "string") throw new OAuthError("The Google profile has no e-mail.");
  return {
    sub: p.sub,
    email: p.email.toLowerCase(),
    email_verified: p.email_verified === true || p.email_verified === "true",
    name: typeof p.name === "string" ? p.name : null,
    picture: typeof p.picture === "string" ? p.picture : null,
  };
}

// ---- Other providers' authorization-code flows (Instagram Login, TikTok Login Kit) ----------------
// Their authorize URLs and token requests differ from Google's (client_key, no PKCE on the web),
// so the provider's module builds the URL and exchanges the code; the state (128+ bits) and the
// flow's payload live in the same signed, HttpOnly, 10-minute cookie as Google's.

/** Starts a provider's flow: a fresh state kept in the flow cookie; `buildUrl` makes the authorize URL. */
export async function startProviderAuthorization<T>(
  request: Request,
  opts: { cookieName: string; callbackPath: string; payload: T; buildUrl: (state: string, redirectUri: string) => URL },
): Promise<AuthorizationStart> {
  const state = generateState();
  const redirectUri = new URL(opts.callbackPath, request.url).toString();
  const value: FlowState<T> = { state, verifier: "", redirectUri, payload: opts.payload };
  return { location: opts.buildUrl(state, redirectUri).toString(), setCookie: await flowCookie(request, opts.cookieName).serialize(value) };
}

/**
 * The provider's return (?code&state, or ?error): the state must match the cookie's, else
 * OAuthError. Gives the code and what the flow kept; the caller exchanges the code.
 */
export async function readProviderCallback<T>(request: Request, cookieName: string): Promise<{ code: string; redirectUri: string; payload: T }> {
  const url = new URL(request.url);
  const flow = (await flowCookie(request, cookieName).parse(request.headers.get("Cookie"))) as FlowState<T> | null;
  const error = url.searchParams.get("error");
  if (error) throw new OAuthError(error === "access_denied" ? "Access was denied." : error);
  const code = url.searchParams.get("code");
  const state = url.searchParams.get("state");
  if (!flow || !state || !code || flow.state !== state) throw new OAuthError("The sign-in request expired or did not match. Please try again.");
  return { code, redirectUri: flow.redirectUri, payload: flow.payload };
}
