// The editor offline in any tab (issue 31 §2, docs/decisions/0251): the page registers the
// editor's service worker (public/ai-thumbnail-editor-sw.js, scope /ai-thumbnail-editor) and tells
// it which files its build needs; /auth (where every sign-out lands) deletes what it kept.
// `.client`: only the browser runs it (from effects).

export const EDITOR_SW_URL = "/ai-thumbnail-editor-sw.js";
export const EDITOR_SCOPE = "/ai-thumbnail-editor";
/** The service worker's cache (CACHE in public/ai-thumbnail-editor-sw.js). */
export const EDITOR_CACHE = "thumbnail-editor-offline-v1";

/** Same-origin build files this page has loaded or references (scripts, preloads, styles, fonts). */
function pageFiles(extra: string[]): string[] {
  const files = new Set<string>();
  const add = (href: string | null | undefined) => {
    if (!href) return;
    const url = new URL(href, location.href);
    if (url.origin === location.origin && url.pathname.startsWith("/assets/")) files.add(url.pathname);
  };
  for (const el of document.querySelectorAll<HTMLScriptElement>("script[src]")) add(el.src);
  for (const el of document.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload][href], link[rel=stylesheet][href]")) add(el.href);
  for (const entry of performance.getEntriesByType("resource")) add(entry.name);
  for (const href of extra) add(href);
  return [...files].sort();
}

/** An id of the build the page came from: React Router's manifest version, else its files. */
function buildId(): string {
  const manifest = (window as { __reactRouterManifest?: { version?: string } }).__reactRouterManifest;
  if (manifest?.version) return manifest.version;
  const refs = [...document.querySelectorAll<HTMLScriptElement>("script[src]")].map((s) => s.src);
  refs.push(...[...document.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload][href]")].map((l) => l.href));
  return refs.sort().join(" ");
}

/**
 * Registers the editor's service worker and asks it to keep this build's page files, and the model's
 * files once background removal has been used in this browser (`modelUsed`: it just has been). Production builds only: the dev
 * server's modules are not versioned files.
 */
export async function keepEditorOffline(pageExtras: string[], modelFiles: string[], modelUsed = false): Promise<void> {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  const registration = await navigator.serviceWorker.register(EDITOR_SW_URL, { scope: EDITOR_SCOPE });
  const worker = registration.active ?? (await navigator.serviceWorker.ready).active;
  const files = pageFiles(pageExtras);
  const model = modelFiles.map((f) => new URL(f, location.href).pathname);
  worker?.postMessage({ type: "keep", build: buildId(), files, modelFiles: model, modelUsed });
}

/** Deletes the kept editor page and files and unregisters the worker (after a sign-out). */
export async function forgetEditorOffline(): Promise<void> {
  if (!("serviceWorker" in navigator) || !("caches" in window)) return;
  const registration = await navigator.serviceWorker.getRegistration(EDITOR_SCOPE);
  await registration?.unregister();
  await caches.delete(EDITOR_CACHE);
}
