import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { eq, Placeholder, Param, SQL, sql, StringChunk, Table } from "drizzle-orm";
import { integer, SQLiteColumn, SQLiteTable, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entityKinds } from "../../../tooling/drizzle-entity-kinds";

// The build's transform of drizzle's `is` (tooling/drizzle-entity-kinds.ts, docs/decisions/0277):
// it remembers the class-chain walk's answer per class and kind. Its answers must be drizzle's own
// for drizzle's own values and classes, for classes from another copy of drizzle (same kinds,
// other class objects: what the walk is for), asked once and asked again.

const root = join(import.meta.dirname, "../../..");
const FILE = join(root, "node_modules/drizzle-orm/entity.js");
type Is = (value: unknown, type: unknown) => boolean;

let tmp = "";
let original: Is;
let transformed: Is;
let entityKind: symbol;

beforeAll(async () => {
  mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
  tmp = mkdtempSync(join(root, "node_modules/.cache/entity-kinds-"));
  writeFileSync(join(tmp, "entity.js"), entityKinds(readFileSync(FILE, "utf8")).replace(/\/\/# sourceMappingURL=.*/, ""));
  const a = await import(pathToFileURL(FILE).href);
  original = a.is;
  entityKind = a.entityKind;
  transformed = (await import(pathToFileURL(join(tmp, "entity.js")).href)).is;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("drizzle's is, remembering its answers", () => {
  it("answers as drizzle does, the first time and from memory", () => {
    const users = sqliteTable("users", { id: text("id").primaryKey(), n: integer("n") });
    // Another copy of drizzle's classes: other class objects with the same kinds.
    const k = (name: string) => Object.defineProperty(class {}, entityKind, { value: name });
    const CopySQL = k("SQL");
    const CopyTableBase = k("Table");
    const CopySQLiteTable = Object.defineProperty(class extends CopyTableBase {}, entityKind, { value: "SQLiteTable" });
    const values: unknown[] = [
      sql`select ${users.id} from ${users} where ${eq(users.n, 1)}`,
      new StringChunk("x"),
      new Param(1),
      sql.placeholder("p"),
      users,
      users.id,
      users.n,
      new CopySQL(),
      new CopySQLiteTable(),
      {},
      [],
      "text",
      null,
      undefined,
      0,
      Object.create(null),
      Object.assign(Object.create({ constructor: "not a class" }), { a: 1 }),
    ];
    const types = [SQL, StringChunk, Param, Placeholder, Table, SQLiteTable, SQLiteColumn];
    let asked = 0;
    for (let round = 0; round < 2; round++) {
      for (const [i, v] of values.entries()) {
        for (const t of types) {
          let want: unknown;
          let got: unknown;
          try {
            want = original(v, t);
          } catch (e) {
            want = (e as Error).constructor;
          }
          try {
            got = transformed(v, t);
          } catch (e) {
            got = (e as Error).constructor;
          }
          expect(got, `value ${i} is ${t.name}, round ${round}`).toBe(want);
          asked++;
        }
      }
    }
    expect(asked).toBe(values.length * types.length * 2);
    // The copies are known by their kinds, not by instanceof: the walk's answers, kept.
    expect(transformed(new CopySQL(), SQL)).toBe(true);
    expect(transformed(new CopySQLiteTable(), Table)).toBe(true);
    expect(transformed(new CopySQLiteTable(), SQL)).toBe(false);
    // A class that is not a drizzle entity is still an error.
    expect(() => transformed({}, class Plain {})).toThrow(/doesn't look like a Drizzle entity/);
  });

  it("stops the build when drizzle's is is not as expected", () => {
    expect(() => entityKinds("export function is() {}")).toThrow(/drizzle-entity-kinds: expected one class-chain walk \(is\) .* found 0/);
  });
});
