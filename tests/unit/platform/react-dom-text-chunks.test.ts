import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textChunks } from "../../../tooling/react-dom-text-chunks";

// The build's transform of React's edge server renderer (tooling/react-dom-text-chunks.ts,
// docs/decisions/0275): the transformed renderer must write the same bytes as React's own, through
// streaming Suspense, escaping and text outside ASCII, in fewer, larger chunks.

const root = join(import.meta.dirname, "../../..");
const require = createRequire(join(root, "package.json"));
const FILE = join(root, "node_modules/react-dom/cjs/react-dom-server.edge.production.js");
const source = readFileSync(FILE, "utf8");

// React's production builds throughout (vitest's NODE_ENV would pick React's development build,
// which does not go with react-dom's production renderer).
const React = require(join(root, "node_modules/react/cjs/react.production.js"));
const ReactDOM = require(join(root, "node_modules/react-dom/cjs/react-dom.production.js"));

type Renderer = { renderToReadableStream: (node: unknown, options?: object) => Promise<ReadableStream<Uint8Array>> };

/** Evaluates one copy of the renderer's CommonJS code, with React's production builds. */
function load(code: string): Renderer {
  const module = { exports: {} as Renderer };
  const localRequire = (id: string) => (id === "react" ? React : id === "react-dom" ? ReactDOM : require(id));
  new Function("module", "exports", "require", code)(module, module.exports, localRequire);
  return module.exports;
}

const h = React.createElement;

function page(late: Promise<string>) {
  function Late() {
    return h("p", { className: "late é" }, React.use(late));
  }
  const rows = Array.from({ length: 400 }, (_, i) =>
    h("li", { key: i, className: "rounded-md px-3 text-sm", "data-i": i, title: `"${i}" & <${i}>` }, `Café ☕ 🎵 ${i} <&>`),
  );
  return h("html", null, h("body", null, h("ul", null, rows), h(React.Suspense, { fallback: h("span", null, "…") }, h(Late))));
}

async function render(renderer: Renderer): Promise<{ html: string; chunks: number }> {
  let resolve: (value: string) => void = () => {};
  const late = new Promise<string>((ok) => {
    resolve = ok;
  });
  const stream = await renderer.renderToReadableStream(page(late));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  setTimeout(() => resolve("arrived later ✓"), 10);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return { html: new TextDecoder().decode(Buffer.concat(chunks)), chunks: chunks.length };
}

describe("React's edge renderer with text chunks", () => {
  it("writes the same HTML as React's own renderer, streamed Suspense and non-ASCII text included, in fewer chunks", async () => {
    const [own, transformed] = await Promise.all([render(load(source)), render(load(textChunks(source)))]);
    expect(own.html).toContain("Café ☕ 🎵 399 &lt;&amp;&gt;");
    expect(own.html).toContain("arrived later ✓");
    expect(transformed.html).toBe(own.html);
    expect(transformed.chunks).toBeLessThan(own.chunks);
  });

  it("encodes nothing per chunk: TextEncoder is called once per flush", () => {
    const out = textChunks(source);
    expect(out.match(/textEncoder\.encode\(/g)).toHaveLength(1);
    expect(out).toContain("function stringToChunk(content) {\n  return content;\n}");
  });

  it("fails the build, naming the function, when React's code is not what it expects", () => {
    const changed = source.replace("function stringToChunk(content) {", "function stringToChunk(content, x) {");
    expect(() => textChunks(changed)).toThrow(/expected one stringToChunk .* found 0/);
  });
});
