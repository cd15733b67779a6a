import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { appSettings } from "~/db/schema";
import { DEFAULT_SETTINGS, SETTING_KEYS, type AppSettings } from "~/lib/settings";
import { auditQuery } from "./audit.server";
import { db } from "./db.server";

// App settings in D1 (table app_settings: one row per key, JSON value), with the constants of
// spec section 9 as defaults. Read on hot paths (every rate-limited request), so each isolate
// keeps a copy for 30 seconds; a change made here clears this isolate's copy at once and
// reaches the others within 30 s. See docs/decisions/0022-app-settings-in-d1.md.
// Who may read or change them is the admin module's call (authorize "settings"); this is the store.

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
    const rows = await db().select({ key: appSettings.key, value: appSettings.value }).from(appSettings).all();
    cache = { value: parseRows(rows), at: now };
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
export async function updateSettings(admin: { id: string }, next: AppSettings, request: Request): Promise<{ changed: (keyof AppSettings)[] }> {
  clearSettingsCache();
  const before = await getSettings();
  const changed = (Object.keys(KEYS) as (keyof AppSettings)[]).filter((k) => before[k] !== next[k]);
  if (changed.length === 0) return { changed };
  const now = new Date().toISOString();
  const upserts = changed.map((field) =>
    db()
      .insert(appSettings)
      .values({ key: KEYS[field], value: JSON.stringify(next[field]), updatedAt: now, updatedBy: admin.id })
      .onConflictDoUpdate({
        target: appSettings.key,
        set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at`, updatedBy: sql`excluded.updated_by` },
      }),
  );
  await db().batch([
    auditQuery({
      eventType: "settings_updated",
      severity: "medium",
      userId: admin.id,
      request,
      details: Object.fromEntries(changed.map((k) => [KEYS[k], { from: before[k], to: next[k] }])),
    }),
    ...upserts,
  ]);
  clearSettingsCache();
  return { changed };
}

export type SettingChange = { key: string; updatedAt: string; updatedByEmail: string | null };

/**
 * When each setting last changed and by whom (for the settings page). The store keeps only the
 * user id; `emailOf` (the accounts module's `emailOfUser`) names them in the same query.
 */
export async function settingsHistory(emailOf: (userId: SQLiteColumn) => SQL<string | null>): Promise<SettingChange[]> {
  return db()
    .select({ key: appSettings.key, updatedAt: appSettings.updatedAt, updatedByEmail: emailOf(appSettings.updatedBy) })
    .from(appSettings)
    .all();
}
