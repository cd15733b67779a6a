import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isUrlShaped } from "~/modules/accounts/schema";

// Issue 11: the URL rule (item 12) and the one path every session end takes (item 14).

describe("isUrlShaped: an http(s) link with a real host", () => {
  it("refuses what the URL parser would turn into a host: '0', bare numbers, hex, short dotted numbers", () => {
    for (const value of ["0", "1", "42", "0x7f", "0x7f.1", "1.2", "https://0", "http://1.2", "999.1.1.1", "https://256.0.0.1/x"]) {
      expect(isUrlShaped(value), value).toBe(false);
    }
  });

  it("refuses other schemes, a host without a dot or with an empty label, and no host at all", () => {
    for (const value of [
      "ftp://a.com",
      "javascript:alert(1)",
      "mailto:a@b.com",
      "example",
      "a..com",
      "https://example.com.",
      "https://",
      "//",
      "",
      " ",
      "https://a.b.c",
    ]) {
      expect(isUrlShaped(value), value).toBe(false);
    }
  });

  it("accepts dotted hosts with or without a scheme, localhost, full IPv4 and international names", () => {
    for (const value of [
      "youtube.com/@abc",
      "https://www.youtube.com/@abc",
      "www.youtube.com/channel/UC123",
      "http://localhost",
      "localhost:3000",
      "https://192.168.0.1/x",
      "https://münchen.de",
      " https://x.io ",
      "https://open.spotify.com/artist/1?si=x#y",
    ]) {
      expect(isUrlShaped(value), value).toBe(true);
    }
  });
});

const root = resolve(import.meta.dirname, "../../..");
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}
const sources = [...walk(join(root, "app")), ...walk(join(root, "workers"))].map((path) => ({
  file: relative(root, path),
  text: readFileSync(path, "utf8"),
}));

describe("one path for every way a session ends", () => {
  it("only session.server.ts deletes session rows", () => {
    const offenders = sources
      .filter(
        ({ file, text }) =>
          file !== "app/modules/accounts/session.server.ts" && (/delete\(\s*sessions\s*\)/.test(text) || /DELETE\s+FROM\s+sessions\b/i.test(text)),
      )
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("whoever runs the ending statements in its own batch also has the notifier close the sockets", () => {
    const offenders = sources.filter(({ text }) => /endSessionsStatements\(/.test(text) && !/afterSessionsEnded\(/.test(text)).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});
