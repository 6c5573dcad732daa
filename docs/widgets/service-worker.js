// The site's service worker: what a visit fetched is kept, so that a page visited once works
// offline in full (its text, figures, live cells and training); the reader may keep the rest
// of the site, or one language, ahead (offline.js, the page's control); and it gives the pages
// the cross-origin isolation headers a static host cannot send (COOP/COEP), so that Stop
// interrupts Python instead of replacing it (docs/widgets/README.md, "Runaway code").
//
// The build writes sw.js at the site root: `self.__APY_SITE` (this build's files, see
// offline-files.js) followed by this file, bundled with Workbox's routing and strategies
// (scripts/build-widgets.mjs). A new build is a new sw.js: the browser installs it, it takes
// over at once, and the files of the old build that the new one changed are deleted. A
// build's cache only ever answers with that build's bytes:
//
// - A file is kept under a key that carries its revision (the first 16 hex digits of its
//   SHA-256), and only if the bytes that arrived have that digest. A kept file is used only if
//   its bytes still do (the reader's Python can write into Cache Storage), else it is deleted
//   and fetched again.
// - Pages: network first, the kept copy when the network fails; a page never kept, offline,
//   leads to the language's offline page. Other files: the kept copy first.
// - A page whose bytes are not this build's comes from a newer build: from then on this worker
//   answers from the network only (so that page never meets an old file), and asks the
//   browser to fetch the new sw.js.
//
// Storage full or refused: pages and files come from the network as without a worker, and
// the control says why nothing is kept.
import { registerQuotaErrorCallback } from "workbox-core";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst, NetworkFirst, NetworkOnly } from "workbox-strategies";

import { SITE_CACHE, addressOf, bytesOf, keyOf, languageOf, parseKey, pathOf, pathsFor } from "./offline-files.js";

const site = self.__APY_SITE;
const scope = self.registration.scope;
const state = { newerBuild: false, storage: "ok" }; // storage: ok | full | refused

const revisionOf = (path) => site.files[path]?.[0] ?? null;
const listed = (url) => {
  const path = pathOf(url, scope);
  return path !== null && revisionOf(path) !== null ? path : null;
};

async function digestOf(response) {
  const bytes = await response.clone().arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function sawNewerBuild() {
  if (state.newerBuild) return;
  state.newerBuild = true;
  self.registration.update().catch(() => {});
}

// Workbox plugin: keys with revisions, and only this build's bytes in and out.
const thisBuildOnly = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const path = pathOf(request.url, scope);
    return keyOf(path, revisionOf(path), scope);
  },
  cacheWillUpdate: async ({ request, response }) => {
    if (!response || response.status !== 200 || response.type !== "basic") return null;
    const path = pathOf(request.url, scope);
    if ((await digestOf(response)) === revisionOf(path)) return response;
    if (path in site.titles) sawNewerBuild(); // a page (`request` is the revalidating copy, not the navigation)
    return null;
  },
  cachedResponseWillBeUsed: async ({ cachedResponse, request, cacheName }) => {
    if (!cachedResponse) return null;
    if ((await digestOf(cachedResponse)) === revisionOf(pathOf(request.url, scope))) return cachedResponse;
    const cache = await caches.open(cacheName);
    await cache.delete(keyOf(pathOf(request.url, scope), revisionOf(pathOf(request.url, scope)), scope));
    return null;
  },
};

// Workbox plugin: the headers that make a page cross-origin isolated, on every answer (a
// worker's script needs its own COEP under an isolated page, Material's search worker too).
const isolated = {
  handlerWillRespond: async ({ response }) => withIsolation(response),
};

function withIsolation(response) {
  if (!response || response.type === "opaqueredirect" || response.status === 0) return response;
  if (response.redirected) return Response.redirect(response.url, 302); // a navigation may not take a followed redirect
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// A file this build lists but that is not kept is asked of the server, not of the HTTP cache:
// a host's max-age (GitHub Pages: 10 minutes) would hand back the old build's bytes. A file
// that did not change costs a 304.
const revalidated = {
  requestWillFetch: async ({ request }) => new Request(request.url, { cache: "no-cache", credentials: "same-origin" }),
};
const pages = new NetworkFirst({ cacheName: SITE_CACHE, plugins: [revalidated, thisBuildOnly, isolated] });
const files = new CacheFirst({ cacheName: SITE_CACHE, plugins: [revalidated, thisBuildOnly, isolated] });
const networkPages = new NetworkOnly({ plugins: [revalidated, isolated] });
const network = new NetworkOnly({ plugins: [isolated] });

registerRoute(
  ({ request, url }) => request.mode === "navigate" && pathOf(url.href, scope) !== null,
  (options) => (!state.newerBuild && listed(options.url.href) ? pages : networkPages).handle(options),
);
registerRoute(
  ({ request, url }) => request.method === "GET" && request.mode !== "navigate" && listed(url.href) !== null,
  (options) => (state.newerBuild ? network : files).handle(options),
);

// Offline, a page never kept: the language's offline page, if it is kept.
setCatchHandler(async ({ request, url }) => {
  if (request.mode !== "navigate") return Response.error();
  const path = pathOf(url.href, scope);
  const offline = site.offline[languageOf(path ?? "", site.homes)];
  const cache = await caches.open(SITE_CACHE);
  if (!offline || offline === path || !(await cache.match(keyOf(offline, revisionOf(offline), scope)))) {
    return Response.error();
  }
  const target = new URL(addressOf(offline, scope));
  target.searchParams.set("from", url.href);
  return Response.redirect(target.href, 302);
});

registerQuotaErrorCallback(() => {
  state.storage = "full";
});

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await self.clients.claim();
      await forgetOtherBuilds();
    })(),
  );
});

/** Deletes every kept file this build does not have at that revision. */
async function forgetOtherBuilds() {
  try {
    const cache = await caches.open(SITE_CACHE);
    for (const request of await cache.keys()) {
      const parsed = parseKey(request.url, scope);
      if (!parsed || revisionOf(parsed[0]) !== parsed[1]) await cache.delete(request);
    }
  } catch {
    state.storage = "refused";
  }
}

/** Keeps `paths` that are not kept yet, reporting progress to `client`; true when all are. */
async function keep(paths, client, task, id) {
  let cache;
  try {
    cache = await caches.open(SITE_CACHE);
  } catch {
    state.storage = "refused";
    return false;
  }
  const missing = [];
  for (const path of new Set(paths)) {
    if (revisionOf(path) !== null && !(await cache.match(keyOf(path, revisionOf(path), scope)))) missing.push(path);
  }
  const total = bytesOf(site, missing);
  let done = 0;
  for (const path of missing) {
    if (state.newerBuild) return false;
    // What the visit fetched is in the HTTP cache: take it from there, even if stale (its
    // bytes are checked), rather than download it again.
    const response = await fetch(addressOf(path, scope), { cache: task === "visit" ? "force-cache" : "default" });
    if (response.status !== 200 || (await digestOf(response)) !== revisionOf(path)) continue;
    try {
      await cache.put(keyOf(path, revisionOf(path), scope), response);
    } catch (error) {
      state.storage = error?.name === "QuotaExceededError" ? "full" : "refused";
      return false;
    }
    done += site.files[path][1];
    if (task === "keep") client?.postMessage({ type: "apy-offline-progress", id, done, total });
  }
  return true;
}

/** What is kept: bytes, files, and the kept pages of each language with their titles. */
async function status() {
  const kept = { bytes: 0, files: 0, pages: {} };
  try {
    const cache = await caches.open(SITE_CACHE);
    for (const request of await cache.keys()) {
      const parsed = parseKey(request.url, scope);
      if (!parsed || revisionOf(parsed[0]) !== parsed[1]) continue;
      const [path] = parsed;
      kept.bytes += site.files[path][1];
      kept.files += 1;
      if (path in site.titles && !Object.values(site.offline).includes(path)) {
        (kept.pages[languageOf(path, site.homes)] ??= []).push({ address: addressOf(path, scope), title: site.titles[path] });
      }
    }
  } catch {
    state.storage = "refused";
  }
  const sizes = Object.fromEntries(
    ["all", ...Object.keys(site.homes)].map((choice) => [choice, bytesOf(site, pathsFor(site, choice))]),
  );
  return { type: "apy-offline-status", build: site.build, storage: state.storage, kept, sizes };
}

// Python's own files that a page's Python needs to start again offline. Not the whole
// standard library where the build has the core of it: Python starts with the core (or the
// memory image, which the page's worker keeps itself) and fetches the whole archive only for
// code that imports more (stdlib_on_demand.py); keeping the site keeps it too.
const WHOLE_STDLIB = "assets/pyodide/python_stdlib.zip";
const CORE_STDLIB = "assets/pyodide/python_stdlib_core.zip";

function pythonForAVisit() {
  const python = Object.keys(site.files).filter((path) => site.files[path][2] === "python");
  return python.includes(CORE_STDLIB) ? python.filter((path) => path !== WHOLE_STDLIB) : python;
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const client = event.source;
  const answer = async () => {
    if (message.type === "visit") {
      // What this visit needs to work offline again: what the page fetched, itself, its
      // language's offline page, Material's scripts, and (once its Python has started)
      // Python's own files.
      const paths = (Array.isArray(message.urls) ? message.urls : []).map((url) => listed(String(url))).filter(Boolean);
      const language = languageOf(pathOf(String(message.page), scope) ?? "", site.homes);
      if (site.offline[language]) paths.push(site.offline[language]);
      // Material's scripts, which its search worker fetches on its own: the search worker,
      // the stemmers (only the built languages' are listed).
      paths.push(...Object.keys(site.files).filter((path) => path.startsWith("assets/javascripts/")));
      if (message.python) paths.push(...pythonForAVisit());
      await keep(paths, client, "visit", message.id);
    } else if (message.type === "keep" && (message.choice === "all" || message.choice in site.homes)) {
      await keep(pathsFor(site, message.choice), client, "keep", message.id);
    } else if (message.type === "remove") {
      try {
        await caches.delete(SITE_CACHE);
      } catch {
        state.storage = "refused";
      }
    } else if (message.type !== "status") {
      return;
    }
    client?.postMessage({ ...(await status()), id: message.id });
  };
  event.waitUntil(answer());
});
