declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}

/**
 * Settings a deployment may leave out, so neither wrangler.toml nor .dev.vars.example names them
 * (`wrangler types` builds the rest of Env from those two). Declared here so every read is typed.
 */
interface Env {
  /** Workers AI, where the deployment binds it (`[ai] binding = "AI"`, decisions 0182 and 0311). */
  AI?: { run(model: string, input: unknown): Promise<unknown> };
  /** A development build's Workers AI stand-in ("1"), app/platform/workers-ai.server.ts. */
  AI_STAND_IN?: string;
  /** Google's token revocation endpoint when it is not beside the token endpoint (the stand-in's tests). */
  GOOGLE_REVOKE_URL?: string;
  /** YouTube Data API's videos endpoint when it is not beside the channels endpoint (the stand-in's tests). */
  YOUTUBE_VIDEOS_URL?: string;
}
