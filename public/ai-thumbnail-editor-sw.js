// The thumbnail editor's service worker (issue 31 §2, docs/decisions/0251): after one use online,
// /ai-thumbnail-editor opens and removes backgrounds offline in any tab.
//
// Scope: /ai-thumbnail-editor only (registered by app/modules/thumbnails/editor/offline.ts). It
// controls the editor page and the segmentation worker, whose script the build puts under
// /ai-thumbnail-editor/offline/ for that reason (vite.config.ts): a dedicated worker is controlled
// by the registration its own URL falls in, not by its page's.
//
// - The page: network first. A 200 HTML answer (the server gives one to a signed-in admin only)
//   is kept; any other answer (a redirect to /auth or /dashboard, a 403) deletes the kept copy.
//   Without a network, the kept copy is served if it is younger than the session's idle expiry
//   (7 days, SESSION_IDLE_MS). /auth deletes everything kept here (sign-out always lands there).
// - Files under /assets/ and /ai-thumbnail-editor/offline/: cache first. Their names carry a hash
//   of their content, so a kept copy is never stale; a new build or model has new names.
// - The page tells this worker which files its build needs ("keep"): they are fetched into the
//   cache; when the build changed, files of older builds are deleted. The model's files are kept
//   (and, after an update, fetched again) only once background removal has been used here.
// Nothing else (the API, .data, sockets) is touched: those go to the network as without a worker.

const CACHE = "thumbnail-editor-offline-v1";
const PAGE = "/ai-thumbnail-editor";
const BUILD_KEY = "/ai-thumbnail-editor-sw/build";
const KEPT_AT = "X-Kept-At";
const PAGE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const MODEL_FILE = /\.(wasm|tflite)$/;

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith("thumbnail-editor-offline-") && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** A versioned file of the build (content-hashed name). */
function isBuildFile(url) {
  return url.origin === self.location.origin && (url.pathname.startsWith("/assets/") || url.pathname.startsWith(`${PAGE}/offline/`));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate" && url.origin === self.location.origin && url.pathname === PAGE) {
    event.respondWith(page(request, event));
  } else if (isBuildFile(url)) {
    event.respondWith(buildFile(request));
  }
});

/** Keeps a copy of the admin's page with the time it was kept. */
async function keepPage(response) {
  const cache = await caches.open(CACHE);
  const headers = new Headers(response.headers);
  headers.set(KEPT_AT, String(Date.now()));
  await cache.put(PAGE, new Response(await response.blob(), { status: 200, statusText: "OK", headers }));
}

function isAdminPage(response) {
  return response.status === 200 && !response.redirected && (response.headers.get("Content-Type") ?? "").startsWith("text/html");
}

async function page(request, event) {
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(PAGE);
    if (kept && Date.now() - Number(kept.headers.get(KEPT_AT)) < PAGE_MAX_AGE_MS) return kept;
    throw offline;
  }
  // The page streams to the browser at once; the copy is written alongside.
  if (isAdminPage(response)) event.waitUntil(keepPage(response.clone()));
  else event.waitUntil(caches.open(CACHE).then((cache) => cache.delete(PAGE)));
  return response;
}

async function buildFile(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status === 200 && response.type === "basic") await cache.put(new URL(request.url).pathname, response.clone());
  return response;
}

self.addEventListener("message", (event) => {
  const m = event.data;
  if (m?.type === "keep" && Array.isArray(m.files) && Array.isArray(m.modelFiles) && typeof m.build === "string") {
    event.waitUntil(keep(m.build, m.files, m.modelFiles, m.modelUsed === true));
  }
});

/** Fetches what the page's build needs into the cache and drops what an older build needed. */
async function keep(build, files, modelFiles, justUsed) {
  const cache = await caches.open(CACHE);
  const keys = (await cache.keys()).map((r) => new URL(r.url).pathname);
  const modelUsed = justUsed || keys.some((p) => MODEL_FILE.test(p));
  const wanted = [...files, ...(modelUsed ? modelFiles : [])].filter((p) => typeof p === "string" && isBuildFile(new URL(p, self.location.origin)));
  for (const path of wanted) {
    if (keys.includes(path)) continue;
    const response = await fetch(path);
    if (response.ok) await cache.put(path, response);
  }
  if (!keys.includes(PAGE)) {
    const response = await fetch(PAGE, { credentials: "same-origin" });
    if (isAdminPage(response)) await keepPage(response);
  }
  const keptBuild = await cache.match(BUILD_KEY);
  if (keptBuild && (await keptBuild.text()) !== build) {
    // A new build: the older build's files go, except the ones this page still uses.
    const keepSet = new Set([...wanted, PAGE, BUILD_KEY]);
    for (const path of keys) if (!keepSet.has(path)) await cache.delete(path);
  }
  await cache.put(BUILD_KEY, new Response(build));
}
