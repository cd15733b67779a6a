import type { Plugin } from "vite";
import { dependencyTransform, type Replacement, replaceOnce } from "./replace-once.ts";

// React's server renderer for the edge (react-dom-server.edge.production.js, the one workerd runs)
// turns every piece of HTML it writes into bytes on its own: `stringToChunk` calls
// TextEncoder.encode for each attribute name, value, tag and text, a few thousand calls per page.
// In workerd each call leaves JavaScript and allocates a buffer: about 2.4 µs a call, measured on
// this machine, 5,000 calls 12 ms, against 0.5 ms to join the same strings and encode them once.
// That was most of a page's CPU time (pushAttribute, 27 % of /music's profile), and CPU time per
// request is what Cloudflare bills and caps (docs/decisions/0275).
//
// This transform makes the renderer keep text as text: chunks are strings, a flush joins them and
// encodes once, when React hands the bytes to the stream (completeWriting). Everything else — the
// order of chunks, when React flushes, Suspense streaming — is React's own code, unchanged. The
// only other use of a chunk's size is React's outlining heuristic (a boundary over 500 bytes); it
// now counts UTF-16 code units, the same number for ASCII.
//
// Each replacement must match exactly once, or the build fails and names it: a React release that
// changes these functions is looked at again, never silently left half-transformed.

const TARGET = /react-dom[\\/]cjs[\\/]react-dom-server\.edge\.production\.js$/;

const REPLACEMENTS: Replacement[] = [
  {
    name: "writeChunk",
    find: /function writeChunk\(destination, chunk\) \{[\s\S]*?\n\}\n(?=function writeChunkAndReturn\()/,
    replace: 'function writeChunk(destination, chunk) {\n  pendingText += chunk;\n}\nvar pendingText = "";\n',
  },
  {
    name: "completeWriting",
    find: /function completeWriting\(destination\) \{[\s\S]*?\n\}\n/,
    replace:
      'function completeWriting(destination) {\n  if (0 < pendingText.length) {\n    var text = pendingText;\n    pendingText = "";\n    destination.enqueue(textEncoder.encode(text));\n  }\n}\n',
  },
  {
    name: "stringToChunk",
    find: /function stringToChunk\(content\) \{\n {2}return textEncoder\.encode\(content\);\n\}/,
    replace: "function stringToChunk(content) {\n  return content;\n}",
  },
  {
    name: "stringToPrecomputedChunk",
    find: /function stringToPrecomputedChunk\(content\) \{\n {2}return textEncoder\.encode\(content\);\n\}/,
    replace: "function stringToPrecomputedChunk(content) {\n  return content;\n}",
  },
  {
    name: "byteLengthOfChunk",
    find: /function byteLengthOfChunk\(chunk\) \{\n {2}return chunk\.byteLength;\n\}/,
    replace: "function byteLengthOfChunk(chunk) {\n  return chunk.length;\n}",
  },
  {
    name: "finishedSegment",
    find: /segmentByteSize \+= segment\[i\]\.byteLength;/,
    replace: "segmentByteSize += segment[i].length;",
  },
];

/** React's edge server renderer with text chunks encoded once per flush; throws when React's code is not as expected. */
export function textChunks(code: string): string {
  const out = replaceOnce(code, REPLACEMENTS, { tool: "react-dom-text-chunks", file: "react-dom-server.edge.production.js" });
  if (/\.byteLength\b|\.subarray\(/.test(out)) {
    throw new Error(
      "react-dom-text-chunks: react-dom-server.edge.production.js still measures or slices byte chunks. React changed: look at tooling/react-dom-text-chunks.ts again.",
    );
  }
  return out;
}

/** The Vite plugin: applies textChunks to React's edge server renderer wherever it is bundled. */
export function reactDomTextChunks(): Plugin {
  return dependencyTransform("react-dom-text-chunks", TARGET, textChunks);
}
