import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { present } from "../helpers/present";

// The shape of the code, checked: routes hold no SQL and no tables; a domain module touches only
// its own tables and reaches another module only through that module's public files; only the
// form parser reads a request body. See docs/how-a-request-flows.md.

const root = resolve(import.meta.dirname, "../..");
const app = join(root, "app");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}
const rel = (p: string) => relative(root, p);
const source = (p: string) => readFileSync(p, "utf8");

/** Which domain owns each table. Platform tables are written only through app/platform. */
const TABLE_OWNERS: Record<string, string> = {
  users: "accounts",
  profiles: "accounts",
  user_roles: "accounts",
  sessions: "accounts",
  ended_sessions: "accounts",
  oauth_accounts: "accounts",
  one_time_tokens: "accounts",
  phone_codes: "accounts",
  security_audit_log: "platform",
  email_outbox: "platform",
  app_settings: "platform",
  agencies: "agencies",
  agency_users: "agencies",
  agency_signup_tokens: "agencies",
  agency_manager_invitations: "agencies",
  notifications: "notifications",
  user_notifications: "notifications",
  youtube_channels: "channels",
  youtube_channel_tokens: "channels",
  channel_snapshots: "channels",
  manual_channel_submissions: "channels",
  music_tracks: "music",
  music_licences: "music",
  music_licence_channels: "music",
  clipper_links: "clipping",
  clipper_invitations: "clipping",
  clip_sources: "clipping",
  clip_source_parts: "clipping",
  clips: "clipping",
  clip_split_requests: "clipping",
  ledger_entries: "payments",
  revenue_imports: "payments",
  revenue_months: "payments",
  payouts: "payments",
  ledger_video_lines: "payments",
  revenue_column_mappings: "payments",
  payout_accounts: "payments",
  stripe_events: "payments",
  chat_rooms: "chat",
  chat_messages: "chat",
  chat_mutes: "chat",
  chat_reads: "chat",
  campaigns: "campaigns",
  campaign_participants: "campaigns",
  campaign_submissions: "campaigns",
  payment_agreements: "payments",
  share_offers: "payments",
  thumbnail_projects: "thumbnails",
  thumbnail_assets: "thumbnails",
  thumbnail_exports: "thumbnails",
  user_activity_days: "growth",
  retention_weeks: "growth",
  retention_cohort_cells: "growth",
  retention_notices: "growth",
  retention_people: "growth",
};

/** The drizzle table objects of app/db/schema.ts, by their TypeScript name. */
const TABLE_EXPORTS: Record<string, string> = {
  users: "users",
  profiles: "profiles",
  userRoles: "user_roles",
  sessions: "sessions",
  endedSessions: "ended_sessions",
  oauthAccounts: "oauth_accounts",
  oneTimeTokens: "one_time_tokens",
  phoneCodes: "phone_codes",
  securityAuditLog: "security_audit_log",
  emailOutbox: "email_outbox",
  appSettings: "app_settings",
  agencies: "agencies",
  agencyUsers: "agency_users",
  agencySignupTokens: "agency_signup_tokens",
  agencyManagerInvitations: "agency_manager_invitations",
  notifications: "notifications",
  userNotifications: "user_notifications",
  youtubeChannels: "youtube_channels",
  youtubeChannelTokens: "youtube_channel_tokens",
  channelSnapshots: "channel_snapshots",
  manualChannelSubmissions: "manual_channel_submissions",
  musicTracks: "music_tracks",
  musicLicences: "music_licences",
  musicLicenceChannels: "music_licence_channels",
  clipperLinks: "clipper_links",
  clipperInvitations: "clipper_invitations",
  clipSources: "clip_sources",
  clipSourceParts: "clip_source_parts",
  clips: "clips",
  clipSplitRequests: "clip_split_requests",
  ledgerEntries: "ledger_entries",
  revenueImports: "revenue_imports",
  revenueMonths: "revenue_months",
  payouts: "payouts",
  ledgerVideoLines: "ledger_video_lines",
  revenueColumnMappings: "revenue_column_mappings",
  payoutAccounts: "payout_accounts",
  stripeEvents: "stripe_events",
  chatRooms: "chat_rooms",
  chatMessages: "chat_messages",
  chatMutes: "chat_mutes",
  chatReads: "chat_reads",
  campaigns: "campaigns",
  campaignParticipants: "campaign_participants",
  campaignSubmissions: "campaign_submissions",
  paymentAgreements: "payment_agreements",
  shareOffers: "share_offers",
  thumbnailProjects: "thumbnail_projects",
  thumbnailAssets: "thumbnail_assets",
  thumbnailExports: "thumbnail_exports",
  userActivityDays: "user_activity_days",
  retentionWeeks: "retention_weeks",
  retentionCohortCells: "retention_cohort_cells",
  retentionNotices: "retention_notices",
  retentionPeople: "retention_people",
};

/**
 * Reads across a boundary that are deliberate, each with its reason. Keep this list short: prefer
 * calling the owning module's function.
 */
const ALLOWED_CROSS_READS: { file: string; table: string; why: string }[] = [
  // The one session query (docs/decisions/0004): session, user, profile, admin role, active-agency
  // membership (agencies' own SQL, through the fact it provides) and unread count in one round trip
  // on every signed-in request.
  { file: "app/modules/accounts/session.server.ts", table: "user_notifications", why: "one session query" },
];

function tablesReferenced(text: string): Set<string> {
  const found = new Set<string>();
  // drizzle table objects imported from the schema
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']~\/db\/schema["']/g)) {
    for (const name of present(m[1], "the import list")
      .split(",")
      .map((s) => present(s.trim().split(/\s+as\s+/)[0], "the imported name").replace(/^type\s+/, ""))) {
      const table = TABLE_EXPORTS[name];
      if (table) found.add(table);
    }
  }
  if (/import\s+\*\s+as\s+\w+\s+from\s*["']~\/db\/schema["']/.test(text) || /\bschema\.\w+/.test(text)) {
    for (const m of text.matchAll(/\bschema\.(\w+)/g)) {
      const table = TABLE_EXPORTS[present(m[1], "the schema export name")];
      if (table) found.add(table);
    }
  }
  // raw SQL
  for (const m of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_]+)\b/g)) {
    const table = present(m[1], "the SQL table name");
    if (TABLE_OWNERS[table]) found.add(table);
  }
  return found;
}

const moduleOf = (file: string) => /^app\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;

/** Files of a module that other modules may import: its facade, guards, schemas, types, UI, pure code. */
function isPublicFile(file: string): boolean {
  const m = /^app\/modules\/([^/]+)\/(.+)$/.exec(file);
  if (!m) return true;
  const domain = present(m[1], "the module name");
  const inner = present(m[2], "the path inside the module");
  // hooks.server.ts: what the domain registers into the accounts and notifications modules, for app/wiring.server.ts.
  if (inner === `${domain}.server.ts` || inner === "guards.server.ts" || inner === "hooks.server.ts") return true;
  if (inner.startsWith("components/")) return true;
  return !inner.endsWith(".server.ts");
}

function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)["']([^"']+)["']/g)) {
    const spec = present(m[1], "the import specifier");
    let target: string | null = null;
    if (spec.startsWith("~/")) target = `app/${spec.slice(2)}`;
    else if (spec.startsWith(".")) target = rel(resolve(root, file, "..", spec));
    if (!target) continue;
    for (const ext of ["", ".ts", ".tsx"]) {
      try {
        if (statSync(join(root, target + ext)).isFile()) {
          out.push(target + ext);
          break;
        }
      } catch {}
    }
  }
  return out;
}

const appFiles = walk(app).map(rel);

/**
 * Every file of app/ and workers/ with the files of app/ and workers/ it loads at run time, parsed
 * by the TypeScript compiler: `import … from`, `export … from`, side-effect `import "…"` and
 * `import("…")`. "~/" is app/; a specifier resolves to the file itself, its .ts or .tsx, or the
 * folder's index.ts/.tsx (a `.server` or `.client` part is part of the name). Type-only statements
 * (`import type`, `export type`) are left out: the compiler erases them, so they decide no load
 * order (a cycle through types between domains is the domain test's business, above).
 */
function runtimeImportGraph(): Map<string, string[]> {
  const files = [...appFiles, ...walk(join(root, "workers")).map(rel)];
  const known = new Set(files);
  const resolveSpecifier = (file: string, spec: string): string | null => {
    const base = spec.startsWith("~/") ? `app/${spec.slice(2)}` : spec.startsWith(".") ? rel(resolve(root, dirname(file), spec)) : null;
    if (base === null) return null;
    return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((c) => known.has(c)) ?? null;
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const tree = ts.createSourceFile(file, source(join(root, file)), ts.ScriptTarget.Latest, false, kind);
    const specifiers: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        if (!node.importClause?.isTypeOnly) specifiers.push(node.moduleSpecifier.text);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        if (!node.isTypeOnly) specifiers.push(node.moduleSpecifier.text);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [argument] = node.arguments;
        if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
    const targets = specifiers.map((s) => resolveSpecifier(file, s)).filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import cycles of a graph: its strongly connected components of two or more files, or one that imports itself (Tarjan). */
function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return cycles;
}

describe("the shape of the code", () => {
  it("routes contain no SQL, no tables and no bindings", () => {
    const offenders: string[] = [];
    for (const file of appFiles.filter((f) => f.startsWith("app/routes/"))) {
      const text = source(join(root, file));
      if (/["']~\/db\/schema["']|drizzle-orm|env\.DB\b|\.prepare\(|\bdb\(\)/.test(text)) offenders.push(`${file}: database access`);
      if (/\b(SELECT\s+[\w*]|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b/.test(text)) offenders.push(`${file}: SQL`);
    }
    expect(offenders).toEqual([]);
  });

  it("each domain module touches only its own tables", () => {
    const offenders: string[] = [];
    for (const file of appFiles) {
      const domain = moduleOf(file);
      const owner = domain ?? (file.startsWith("app/platform/") ? "platform" : null);
      if (!owner) continue;
      for (const table of tablesReferenced(source(join(root, file)))) {
        if (TABLE_OWNERS[table] === owner) continue;
        if (ALLOWED_CROSS_READS.some((a) => a.file === file && a.table === table)) continue;
        offenders.push(`${file} → ${table} (owned by ${TABLE_OWNERS[table]})`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("a module reaches another module only through its public files", () => {
    const offenders: string[] = [];
    for (const file of appFiles) {
      const from = moduleOf(file);
      for (const target of importsOf(file, source(join(root, file)))) {
        const to = moduleOf(target);
        if (!to || to === from) continue;
        if (!isPublicFile(target)) offenders.push(`${file} → ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("dependencies between domains point one way: no import cycle between app/modules/<domain> folders", () => {
    // Every import counts, types included: a cycle through types is still two domains that cannot
    // be read alone. The side effects and facts a lower domain needs from a higher one go through
    // app/platform/account-hooks.server.ts (docs/decisions/0239-one-way-between-domains.md).
    const graph = new Map<string, Map<string, string>>();
    for (const file of appFiles) {
      const from = moduleOf(file);
      if (!from) continue;
      for (const target of importsOf(file, source(join(root, file)))) {
        const to = moduleOf(target);
        if (!to || to === from) continue;
        if (!graph.has(from)) graph.set(from, new Map());
        const edges = graph.get(from) as Map<string, string>;
        if (!edges.has(to)) edges.set(to, `${file} → ${target}`);
      }
    }
    // Depth-first search: a node met again while still on the stack closes a cycle.
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, "open");
      stack.push(node);
      for (const [next, via] of graph.get(node) ?? []) {
        if (state.get(next) === "open") {
          const loop = [...stack.slice(stack.indexOf(next)), next];
          cycles.push(`${loop.join(" → ")} (closing import: ${via})`);
        } else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(node, "done");
    };
    for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
    expect(cycles).toEqual([]);
    // The ground stays the ground: accounts imports no other domain but media (avatars).
    expect([...(graph.get("accounts")?.keys() ?? [])].sort()).toEqual(["media"]);
  });

  it("no import cycle between files of app/ and workers/, direct or through other files", () => {
    // A file that reaches itself through any chain of imports cannot be read, loaded or tested
    // alone (issue 44 §1: the stand-ins once closed a circle of 47 files through app/platform).
    const graph = runtimeImportGraph();
    expect(graph.get("app/platform/stand-in.server.ts")).toContain("app/platform/env.server.ts");
    expect(graph.get("workers/app.ts")).toContain("app/wiring.server.ts");
    const cycles = importCycles(graph).map((files) => `${files.length} files: ${files.join(", ")}`);
    expect(cycles).toEqual([]);
    // Parsing every file of app/ and workers/ takes about 4 s alone: a busy machine needs more than vitest's 5 s.
  }, 60_000);

  it("the platform layer imports no domain module", () => {
    const offenders = appFiles
      .filter((f) => f.startsWith("app/platform/"))
      .flatMap((f) =>
        importsOf(f, source(join(root, f)))
          .filter((t) => t.startsWith("app/modules/"))
          .map((t) => `${f} → ${t}`),
      );
    expect(offenders).toEqual([]);
  });

  it("only app/platform/body.server.ts reads a request body", () => {
    // formData() anywhere, and text()/json()/arrayBuffer()/blob()/body on something named like a request.
    const bodyRead = /\.formData\(\)|\b(?:request|req|args\.request)\.(?:text|json|arrayBuffer|blob)\(\)|\b(?:request|req)\.body\b/;
    const offenders = [...appFiles, ...walk(join(root, "workers")).map(rel)].filter(
      (f) => f !== "app/platform/body.server.ts" && bodyRead.test(source(join(root, f))),
    );
    expect(offenders).toEqual([]);
  });

  it("only app/platform/db.server.ts reaches D1's binding: everything else goes through a D1 session", () => {
    // env.DB, this.env.DB, env["DB"], or DB destructured from an env: docs/decisions/0232.
    const binding = /\.DB\b|\[\s*["'`]DB["'`]\s*\]|\{[^}]*\bDB\b[^}]*\}\s*=\s*(?:this\.)?env\b/;
    const files = [...appFiles, ...walk(join(root, "workers")).map(rel)];
    expect(files).toContain("app/platform/db.server.ts");
    expect(binding.test(source(join(root, "app/platform/db.server.ts")))).toBe(true);
    const offenders = files.filter((f) => f !== "app/platform/db.server.ts" && binding.test(source(join(root, f))));
    expect(offenders).toEqual([]);
  });
});

describe("the signed-in shell", () => {
  // routes/_app/layout (one shell for app and admin pages) reads the session and decides nothing:
  // every route inside it must run a guard of its own.
  it("every route inside routes/_app/layout runs a require… guard in its loader", async () => {
    const { default: config } = await import("../../app/routes");
    type Entry = { file: string; children?: Entry[] };
    const inside = (entries: Entry[]): string[] => entries.flatMap((e) => [e.file, ...inside(e.children ?? [])]);
    const shell = (config as Entry[]).find((e) => e.file === "routes/_app/layout.tsx");
    const files = inside(shell?.children ?? []);
    expect(files).toContain("routes/_app/dashboard.tsx");
    expect(files).toContain("routes/admin/users.tsx");
    const unguarded = files.filter((f) => {
      const text = source(join(app, f));
      return !/export (const|async function) loader/.test(text) || !/\brequire[A-Z]\w*\(args/.test(text);
    });
    expect(unguarded).toEqual([]);
  });
});
