import type { Plugin } from "vite";
import { dependencyTransform, replaceOnce } from "./replace-once.ts";

// drizzle-orm asks `is(value, Class)` for every piece of every statement it builds: is this chunk
// a string, a name, a column, a table, a parameter…? When the answer is no, `is` walks the value's
// class chain comparing entity kinds, so that two copies of drizzle in one program still know each
// other's classes. Building a page's statements made thousands of those walks a request: drizzle's
// query building was 13 % of /dashboard's CPU time (docs/decisions/0277).
//
// The answer depends only on the value's class and the kind asked for, both fixed once the classes
// exist. This transform keeps the walk as drizzle wrote it and remembers its answer per class and
// kind (a WeakMap keyed by the class). `instanceof` and drizzle's error for a class that is not an
// entity come first, unchanged. Values whose prototype's constructor is not a function take the
// walk each time, as before.

const TARGET = /drizzle-orm[\\/]entity\.js$/;

const WALK = `  let cls = Object.getPrototypeOf(value).constructor;
  if (cls) {
    while (cls) {
      if (entityKind in cls && cls[entityKind] === type[entityKind]) {
        return true;
      }
      cls = Object.getPrototypeOf(cls);
    }
  }
  return false;
}`;

const REMEMBERED = `  let cls = Object.getPrototypeOf(value).constructor;
  const kind = type[entityKind];
  if (typeof cls !== "function") return __sbWalk(cls, kind);
  let kinds = __sbKinds.get(cls);
  if (!kinds) {
    kinds = new Map();
    __sbKinds.set(cls, kinds);
  }
  let known = kinds.get(kind);
  if (known === undefined) {
    known = __sbWalk(cls, kind);
    kinds.set(kind, known);
  }
  return known;
}
const __sbKinds = new WeakMap();
function __sbWalk(cls, kind) {
  if (cls) {
    while (cls) {
      if (entityKind in cls && cls[entityKind] === kind) {
        return true;
      }
      cls = Object.getPrototypeOf(cls);
    }
  }
  return false;
}`;

const literally = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** drizzle-orm's entity.js with `is` remembering its class-chain answers; throws when drizzle's code is not as expected. */
export function entityKinds(code: string): string {
  return replaceOnce(code, [{ name: "class-chain walk (is)", find: new RegExp(literally(WALK)), replace: REMEMBERED }], {
    tool: "drizzle-entity-kinds",
    file: "drizzle-orm/entity.js",
  });
}

/** The Vite plugin: applies entityKinds to drizzle-orm's entity.js wherever it is bundled. */
export function drizzleEntityKinds(): Plugin {
  return dependencyTransform("drizzle-entity-kinds", TARGET, entityKinds);
}
