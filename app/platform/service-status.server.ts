import { eq, sql } from "drizzle-orm";
import { serviceStatus } from "~/db/schema";
import catalog from "~/lib/outside-services.json";
import { auditQueryWhen } from "./audit.server";
import { db } from "./db.server";
import { env } from "./env.server";

// What the app last saw of each outside service, stored in D1 (table service_status, one row per
// service; docs/decisions/0312): the last success, the last error (code and a short message, never
// a secret or a body), a quota pause (e-mail's daily limit), and the configuration alert the admins
// got. D1 rather than KV: the e-mail sender writes once per message, and KV takes one write per key
// per second and shows it elsewhere up to 60 s later; the "alert once" rule needs a guarded update.
// Each provider records at the one place its HTTP answer is read (docs/decisions/0326): e-mail,
// texts, Workers AI, Google (oauth.server.ts: token endpoint and userinfo), YouTube
// (channels/provider.server.ts; its quota pause is mirrored here by youtube-quota.server.ts), TikTok
// and Instagram (channels/social-provider.server.ts). A refusal that is one person's (a revoked
// grant, a video that is not theirs) is not the service's error and is not recorded.

export type ServiceId = "email" | "sms" | "stripe" | "google" | "youtube" | "tiktok" | "instagram" | "workers_ai";

/** The Worker's bindings and settings as the report reads them (a test passes its own). */
type Bindings = { readonly [K in keyof Env]?: unknown };
type CatalogSetting = { name: keyof Env; kind: "binding" | "var" | "secret"; required: boolean; https?: boolean; unsetInProduction?: boolean };
type CatalogService = { id: ServiceId; label: string; settings: CatalogSetting[]; fix: string };

export const SERVICES = (catalog as { services: CatalogService[] }).services;

const now = () => new Date().toISOString();
const short = (message: string) => message.replace(/\s+/g, " ").slice(0, 300);

/** Upsert of one service's row with the given columns. */
function upsert(service: ServiceId, set: Partial<typeof serviceStatus.$inferInsert>) {
  return db()
    .insert(serviceStatus)
    .values({ service, ...set, updatedAt: now() })
    .onConflictDoUpdate({ target: serviceStatus.service, set: { ...set, updatedAt: now() } });
}

/** Never lets bookkeeping fail the call it describes. */
async function quietly(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error("service status write failed", error);
  }
}

/** Alerts about our own settings (CONFIG_…) stay until another alert: a success of the provider does not fix them. */
const keepConfigAlert = (column: typeof serviceStatus.alertedCode | typeof serviceStatus.alertedAt) =>
  sql`case when substr(${serviceStatus.alertedCode}, 1, 7) = 'CONFIG_' then ${column} else null end`;

/** The service answered: its last success, and any quota pause or provider alert is over. */
export function recordSuccess(service: ServiceId): Promise<void> {
  const at = now();
  return quietly(() =>
    db()
      .insert(serviceStatus)
      .values({ service, lastSuccessAt: at, updatedAt: at })
      .onConflictDoUpdate({
        target: serviceStatus.service,
        set: {
          lastSuccessAt: at,
          pausedUntil: null,
          alertedCode: keepConfigAlert(serviceStatus.alertedCode),
          alertedAt: keepConfigAlert(serviceStatus.alertedAt),
          updatedAt: at,
        },
      })
      .run(),
  );
}

/** Services already recorded as answering during a request (a daily job's run is one request). */
const answered = new WeakMap<Request, Set<ServiceId>>();

/**
 * recordSuccess at most once per request: a daily job that reads 500 videos writes the row once,
 * not 500 times. A failure recorded with the same request clears the mark, so the run's next
 * success is written again (the page then shows that the service recovered).
 */
export function recordSuccessOnce(request: Request, service: ServiceId): Promise<void> {
  let seen = answered.get(request);
  if (!seen) {
    seen = new Set();
    answered.set(request, seen);
  }
  if (seen.has(service)) return Promise.resolve();
  seen.add(service);
  return recordSuccess(service);
}

/** The service refused or failed: its code (the provider's) and a short message. */
export function recordFailure(service: ServiceId, code: string | null, message: string, request?: Request): Promise<void> {
  if (request) answered.get(request)?.delete(service);
  return quietly(() => upsert(service, { lastErrorAt: now(), lastErrorCode: code, lastErrorMessage: short(message) }).run());
}

/** The provider's quota is spent until `until` (ISO time): callers wait instead of trying. */
export function setQuotaPaused(service: ServiceId, until: string): Promise<void> {
  return quietly(() => upsert(service, { pausedUntil: until }).run());
}

/** Until when the service's quota is spent, or null when it may be used now. */
export async function quotaPausedUntil(service: ServiceId, at = Date.now()): Promise<string | null> {
  const row = await db().select({ pausedUntil: serviceStatus.pausedUntil }).from(serviceStatus).where(eq(serviceStatus.service, service)).get();
  return row?.pausedUntil && Date.parse(row.pausedUntil) > at ? row.pausedUntil : null;
}

/**
 * Tells the admins about a configuration problem only an operator can fix (an unverified sender, a
 * texting region not enabled), once per service and code: a guarded update marks the row alerted,
 * and only the request that changed it writes the critical audit record (the admin audit log, and
 * the System status panel shows it). A success clears the mark, so a recurrence alerts again.
 * Returns whether this call raised it.
 */
export async function alertAdminsOnce(service: ServiceId, code: string, message: string): Promise<boolean> {
  let raised = false;
  await quietly(async () => {
    await upsert(service, {}).run();
    const at = now();
    const [marked] = await db().batch([
      db()
        .update(serviceStatus)
        .set({ alertedCode: code, alertedAt: at })
        .where(sql`${serviceStatus.service} = ${service} and (${serviceStatus.alertedCode} is null or ${serviceStatus.alertedCode} <> ${code})`),
      auditQueryWhen(
        { eventType: "outside_service_alert", severity: "critical", details: { service, code, message: short(message), fix: fixFor(service) } },
        sql`changes() = 1`,
      ),
    ]);
    raised = (marked.meta.changes ?? 0) === 1;
  });
  return raised;
}

function fixFor(service: ServiceId): string {
  return SERVICES.find((s) => s.id === service)?.fix ?? "";
}

// ---------------------------------------------------------------------------------------------
// Reading: the System status panel
// ---------------------------------------------------------------------------------------------

export type SettingState = { name: string; kind: CatalogSetting["kind"]; required: boolean; set: boolean; problem: string | null };

export type ServiceReport = {
  id: ServiceId;
  label: string;
  configured: boolean;
  settings: SettingState[];
  /** What to set when something is missing (null when nothing is). */
  fix: string | null;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  pausedUntil: string | null;
  alert: string | null;
};

/** Whether a setting is present in this deployment, and what is wrong with its value (never the value). */
function settingState(s: CatalogSetting, bindings: Bindings): SettingState {
  const value = bindings[s.name];
  const set = s.kind === "binding" ? value !== undefined && value !== null : typeof value === "string" && value !== "";
  let problem: string | null = null;
  if (!set && s.required) problem = "missing";
  else if (set && typeof value === "string") {
    const localLoopback = bindings.DEV_TOOLS === "1" && /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/.test(value);
    if (s.https && !value.startsWith("https://") && !localLoopback) problem = "must be an https:// URL";
    else if (value.startsWith("/dev/"))
      problem = s.unsetInProduction ? "points at the local stand-in (leave unset in production)" : "points at the local stand-in";
  }
  return { name: s.name, kind: s.kind, required: s.required, set, problem };
}

/** Every outside service: configured or not (which settings are set), last success, last error, quota state. */
export async function serviceReports(bindings: Bindings = env): Promise<ServiceReport[]> {
  const rows = await db().select().from(serviceStatus).all();
  return SERVICES.map((s) => {
    const row = rows.find((r) => r.service === s.id);
    const settings = s.settings.map((setting) => settingState(setting, bindings));
    const configured = settings.every((x) => !x.required || x.set);
    const paused = row?.pausedUntil && Date.parse(row.pausedUntil) > Date.now() ? row.pausedUntil : null;
    return {
      id: s.id,
      label: s.label,
      configured,
      settings,
      fix: settings.some((x) => x.problem) ? s.fix : null,
      lastSuccessAt: row?.lastSuccessAt ?? null,
      lastErrorAt: row?.lastErrorAt ?? null,
      lastError: row?.lastErrorAt ? [row.lastErrorCode, row.lastErrorMessage].filter(Boolean).join(": ") : null,
      pausedUntil: paused,
      alert: row?.alertedCode ?? null,
    };
  });
}
