import { DEFAULT_SETTINGS, SETTING_KEYS, type AppSettings } from "~/modules/admin/schema";
import { auditStatement } from "./audit.server";
import { env } from "./env.server";
import type { SessionUser } from "~/modules/accounts/session.server";

// App settings in D1 (table app_settings: one row per key, JSON value), with the constants of
// spec section 9 as defaults. Read on hot paths (every rate-limited request), so each isolate
// keeps a copy for 30 seconds; a change made here clears this isolate's copy at once and
// reaches the others within 30 s. See docs/decisions/0022-app-settings-in-d1.md.

export const SETTINGS_CACHE_MS = 30_000;

const KEYS = SETTING_KEYS;

let cache: { value: AppSettings; at: number } | null = null;

function parseRows(rows: { key: string; value: string }[]): AppSettings {
  const settings: AppSettings = { ...DEFAULT_SETTINGS };
  for (const [field, key] of Object.entries(KEYS) as [keyof AppSettings, string][]) {
    const row = rows.find((r) => r.key === key);
    if (!row) continue;
    try {
      const n = JSON.parse(row.value) as unknown;
      if (typeof n === "number" && Number.isSafeInteger(n) && n > 0) settings[field] = n;
    } catch {
      // a broken row falls back to the default rather than breaking every request
    }
  }
  return settings;
}

/** The settings in force (defaults where none is stored). Cached per isolate for 30 s. */
export async function getSettings(now = Date.now()): Promise<AppSettings> {
  if (cache && now - cache.at < SETTINGS_CACHE_MS) return cache.value;
  try {
    const { results } = await env.DB.prepare("SELECT key, value FROM app_settings").all<{ key: string; value: string }>();
    cache = { value: parseRows(results), at: now };
  } catch (error) {
    // Rate limits read this on every sign-in: an unreadable table must not take them down.
    console.error("reading app settings failed", error);
    return cache?.value ?? { ...DEFAULT_SETTINGS };
  }
  return cache.value;
}

/** Drops this isolate's copy (after a change, and between tests). */
export function clearSettingsCache(): void {
  cache = null;
}

/** Stores the settings and the audit record of what changed, in one batch. */
export async function updateSettings(
  admin: Pick<SessionUser, "id">,
  next: AppSettings,
  request: Request,
): Promise<{ ok: true; changed: (keyof AppSettings)[] }> {
  clearSettingsCache();
  const before = await getSettings();
  const changed = (Object.keys(KEYS) as (keyof AppSettings)[]).filter((k) => before[k] !== next[k]);
  if (changed.length === 0) return { ok: true, changed };
  const now = new Date().toISOString();
  await env.DB.batch([
    ...changed.map((field) =>
      env.DB.prepare(
        `INSERT INTO app_settings (key, value, updated_at, updated_by) VALUES (?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      ).bind(KEYS[field], JSON.stringify(next[field]), now, admin.id),
    ),
    auditStatement({
      eventType: "settings_updated",
      severity: "medium",
      userId: admin.id,
      request,
      details: Object.fromEntries(changed.map((k) => [KEYS[k], { from: before[k], to: next[k] }])),
    }),
  ]);
  clearSettingsCache();
  return { ok: true, changed };
}

/** When each setting last changed and by whom (for the settings page). */
export async function settingsHistory(): Promise<{ key: string; updated_at: string; updated_by_email: string | null }[]> {
  const { results } = await env.DB.prepare(
    `SELECT s.key, s.updated_at, u.email AS updated_by_email FROM app_settings s LEFT JOIN users u ON u.id = s.updated_by`,
  ).all<{ key: string; updated_at: string; updated_by_email: string | null }>();
  return results;
}

