import { devToolsEnabled, env, setting } from "./env.server";

// The Workers AI binding (wrangler.toml `[ai] binding = "AI"`), read in one place. Production reads
// env.AI only. A development build with DEV_TOOLS=1 and AI_STAND_IN=1 answers with the local
// stand-in (app/dev/dev-ai.server.ts), which returns each model's documented output shape, so the
// editor's AI buttons and the tests run offline through production code (decisions 0182, 0311).
// __DEV_TOOLS_BUILD__ is a build-time constant: the production bundle drops the branch. The
// development wiring registers the stand-in (app/dev/stand-ins.server.ts, docs/decisions/0330): the
// platform does not import app/dev.

export type WorkersAi = { run(model: string, input: unknown): Promise<unknown> };

let standInAi: (() => Promise<WorkersAi>) | null = null;

/** The development wiring hands over the Workers AI stand-in, loaded on its first call. */
export function registerStandInAi(load: () => Promise<WorkersAi>): void {
  standInAi = load;
}

/** The Workers AI binding of this deployment, the stand-in in development when asked for, or null. */
export async function workersAi(): Promise<WorkersAi | null> {
  const bound = env.AI;
  if (bound) return bound;
  if (__DEV_TOOLS_BUILD__ && devToolsEnabled() && setting("AI_STAND_IN") === "1") {
    if (!standInAi) throw new Error("No Workers AI stand-in: import app/wiring.server.ts in this entry.");
    return standInAi();
  }
  return null;
}

/** Whether Workers AI can answer here (the binding, or the development stand-in). */
export function workersAiBound(): boolean {
  return Boolean(env.AI) || (__DEV_TOOLS_BUILD__ && devToolsEnabled() && setting("AI_STAND_IN") === "1");
}
