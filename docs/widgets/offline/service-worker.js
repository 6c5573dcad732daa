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
//   its bytes still do, else it is deleted and fetched again; and it is served as the build
//   made it: status 200 and the Content-Type of its name (site.types), never the status or
//   headers stored with it. Anything of the site's origin can write Cache Storage (the
//   reader's Python could): what it writes can make a file missing, never hostile.
// - Pages: network first, the kept copy when the network fails; a page never kept, offline,
//   leads to the language's offline page (every visit keeps every language's).
//   Other files: the kept copy first.
// - `<any page>?apy-repair` (REPAIR) drops every cache of the site and answers with a small
//   page of the worker's own that loads the page afresh: a repair that needs none of the
//   site's files, for a device where the kept copy went wrong.
// - Keeping ahead (the control's Keep) and keeping a visit download one file at a time, each
//   given up when nothing arrives for STALL_MS; a host that fails (no answer, 5xx, a stall)
//   stops the keep with the reason, and the next Keep goes on from there. Two tabs keeping
//   at once share each download.
// - A page whose bytes are not this build's comes from a newer build, and so does a newer
//   sw.js the browser installs (it activates it only once this worker's events have ended):
//   from then on this worker serves from what it keeps only the files the new build's sw.js
//   lists unchanged, and everything else from the network (so a new page never meets an old
//   file); a page's news also asks the browser to fetch the new sw.js. A new build so
//   downloads only what changed, even for a page that loads during the takeover.
//
// Storage full or refused: pages and files come from the network as without a worker, and
// the control says why nothing is kept.
import { registerQuotaErrorCallback } from "workbox-core";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst, NetworkFirst, NetworkOnly } from "workbox-strategies";

import {
  REPAIR,
  SITE_CACHE,
  addressOf,
  bytesOf,
  isSiteCache,
  keyOf,
  languageOf,
  parseKey,
  pathOf,
  pathsFor,
  repairPage,
  typeOf,
  withoutRepair,
} from "./offline-files.js";

const site = self.__APY_SITE;
const scope = self.registration.scope;
// newerBuild: a newer build exists; nextRevisions: its files' revisions ({path: revision}), a
// promise of them once its sw.js is installing (null when it could not be read).
const state = { newerBuild: false, nextRevisions: null, storage: "ok" }; // storage: ok | full | refused

/** A download that receives nothing for this long is given up (the page waits longer for the
 * worker: offline.js, WORKER_SILENT_MS). */
const STALL_MS = 20_000;
/** At most one progress message per this many ms while bytes arrive. */
const PROGRESS_MS = 250;

const revisionOf = (path) => site.files[path]?.[0] ?? null;
const listed = (url) => {
  const path = pathOf(url, scope);
  return path !== null && revisionOf(path) !== null ? path : null;
};

async function digestOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The file at `path` as the build made it: its bytes, status 200, the type of its name. */
function asBuilt(path, bytes) {
  return new Response(bytes, { status: 200, headers: { "Content-Type": typeOf(path, site.types) } });
}

/**
 * The revisions the newer build's sw.js (at `scriptURL`) lists, or null: none read, or the
 * host still serves this build's sw.js (its pages came first: the network then answers alone).
 */
async function revisionsIn(scriptURL) {
  const prefix = "self.__APY_SITE = ";
  try {
    const text = await (await fetch(scriptURL, { cache: "no-cache", credentials: "same-origin" })).text();
    const head = text.slice(0, text.indexOf("\n"));
    if (!head.startsWith(prefix) || !head.endsWith(";")) return null;
    const next = JSON.parse(head.slice(prefix.length, -1));
    if (next.build === site.build) return null;
    return Object.fromEntries(Object.entries(next.files).map(([path, [revision]]) => [path, revision]));
  } catch {
    return null; // not read: this worker answers from the network until the new one takes over
  }
}

/** True when the file at `url` is kept by this build and the newer build did not change it. */
async function unchangedInNextBuild(url) {
  const path = pathOf(url, scope);
  const next = await state.nextRevisions;
  return path !== null && next !== null && next[path] !== undefined && next[path] === revisionOf(path);
}

function sawNewerBuild() {
  if (state.newerBuild) return;
  state.newerBuild = true;
  state.nextRevisions = revisionsIn(self.location.href); // the newer sw.js is at this one's address
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
    const bytes = await response.clone().arrayBuffer();
    if ((await digestOf(bytes)) === revisionOf(path)) return asBuilt(path, bytes);
    if (path in site.titles) sawNewerBuild(); // a page (`request` is the revalidating copy, not the navigation)
    return null;
  },
  // `request` is the cache key (cacheKeyWillBeUsed's), whose path is the file's.
  cachedResponseWillBeUsed: async ({ cachedResponse, request, cacheName }) => {
    if (!cachedResponse) return null;
    const path = pathOf(request.url, scope);
    const bytes = await cachedResponse.arrayBuffer().catch(() => null);
    if (bytes && (await digestOf(bytes)) === revisionOf(path)) return asBuilt(path, bytes);
    const cache = await caches.open(cacheName);
    await cache.delete(keyOf(path, revisionOf(path), scope));
    return null; // fetched again from the network (and kept again if its bytes are the build's)
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

// Before the pages' route: `<any page>?apy-repair`.
registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.searchParams.has(REPAIR) && pathOf(url.href, scope) !== null,
  ({ url }) => repair(url),
);
registerRoute(
  ({ request, url }) => request.mode === "navigate" && pathOf(url.href, scope) !== null,
  (options) => (!state.newerBuild && listed(options.url.href) ? pages : networkPages).handle(options),
);
registerRoute(
  ({ request, url }) => request.method === "GET" && request.mode !== "navigate" && listed(url.href) !== null,
  async (options) => (!state.newerBuild || (await unchangedInNextBuild(options.url.href)) ? files : network).handle(options),
);

// Offline, a page never kept: the language's offline page, if it is kept.
setCatchHandler(async ({ request, url }) => {
  if (request.mode !== "navigate") return Response.error();
  const path = pathOf(url.href, scope);
  const offline = site.offline[languageOf(path ?? "", site.homes)];
  const kept = await caches
    .open(SITE_CACHE)
    .then((cache) => cache.match(keyOf(offline, revisionOf(offline), scope)))
    .catch(() => null); // Cache Storage refused: nothing is kept
  if (!offline || offline === path || !kept) return Response.error();
  const target = new URL(addressOf(offline, scope));
  target.searchParams.set("from", url.href);
  return Response.redirect(target.href, 302);
});

registerQuotaErrorCallback(() => {
  state.storage = "full";
});

self.addEventListener("install", () => self.skipWaiting());
// A newer sw.js is installing: this one's keeping stops at its next file, since the browser
// activates the new one only once this one's events (a keep is one) have ended.
// Until then, the files the new build did not change are still served from what is kept.
self.registration.addEventListener("updatefound", () => {
  const installing = self.registration.installing;
  if (!installing || installing === self.serviceWorker) return;
  state.newerBuild = true;
  state.nextRevisions = revisionsIn(installing.scriptURL);
});

/** Drops every cache of the site (kept files, the Python memory image), forgets what this
 * worker concluded from them, and asks the browser for a newer sw.js if there is one; answers
 * with the worker's own page, which loads `url` afresh without the parameter. */
async function repair(url) {
  try {
    for (const name of await caches.keys()) if (isSiteCache(name)) await caches.delete(name);
  } catch {
    // Cache Storage refused: nothing is kept, so nothing is left to drop
  }
  state.newerBuild = false;
  state.nextRevisions = null;
  state.storage = "ok";
  self.registration.update().catch(() => {});
  const lang = languageOf(pathOf(url.href, scope) ?? "", site.homes);
  const words = site.words[lang] ?? Object.values(site.words)[0];
  return new Response(repairPage(lang, words, withoutRepair(url.href)), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

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

/** Why a keep stopped: "unreachable" (no answer), "status" (`status`: 5xx, 429 or 408, the host
 * failing), "timeout" (nothing for STALL_MS), "storage" (full or refused). */
class KeepStopped extends Error {
  constructor(reason, status = null) {
    super(reason);
    this.reason = reason;
    this.status = status;
  }
}

const FAILING_HOST = (status) => status >= 500 || status === 429 || status === 408;

/** The body of `path` fetched with `cacheMode`, each chunk passed to `onBytes`; null for a
 * file that is not there as listed (another status, or bytes not this build's); throws
 * KeepStopped when the host fails. Nothing for STALL_MS aborts it. */
async function download(path, cacheMode, onBytes) {
  const controller = new AbortController();
  let timer;
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), STALL_MS);
  };
  alive();
  try {
    const response = await fetch(addressOf(path, scope), {
      cache: cacheMode,
      credentials: "same-origin",
      signal: controller.signal,
    });
    if (FAILING_HOST(response.status)) throw new KeepStopped("status", response.status);
    if (response.status !== 200 || response.type !== "basic" || !response.body) return null;
    const reader = response.body.getReader();
    const chunks = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      alive();
      chunks.push(value);
      size += value.byteLength;
      onBytes(value.byteLength);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    if ((await digestOf(bytes)) === revisionOf(path)) return bytes;
    if (path in site.titles) sawNewerBuild();
    return null;
  } catch (error) {
    if (error instanceof KeepStopped) throw error;
    throw new KeepStopped(controller.signal.aborted ? "timeout" : "unreachable");
  } finally {
    clearTimeout(timer);
  }
}

/** Downloads under way, by path: a keep that needs a file another one (another tab's, a
 * visit's) is downloading waits for that download, and hears its bytes, instead of fetching
 * the file again. */
const downloads = new Map(); // path -> { done: Promise<void>, listeners: Set<(bytes) => void> }

/** Keeps `path` (fetched with `cacheMode`), or joins its download under way. A keep lists
 * what is missing when it starts: a file another keep has kept since is not fetched again. */
function keepOne(cache, path, cacheMode, onBytes) {
  let job = downloads.get(path);
  if (!job) {
    const listeners = new Set();
    const done = (async () => {
      if (await cache.match(keyOf(path, revisionOf(path), scope))) return;
      const bytes = await download(path, cacheMode, (n) => listeners.forEach((listen) => listen(n)));
      if (!bytes) return;
      try {
        await cache.put(keyOf(path, revisionOf(path), scope), asBuilt(path, bytes));
      } catch (error) {
        state.storage = error?.name === "QuotaExceededError" ? "full" : "refused";
        throw new KeepStopped("storage");
      }
    })().finally(() => downloads.delete(path));
    job = { done, listeners };
    downloads.set(path, job);
  }
  job.listeners.add(onBytes);
  return job.done.finally(() => job.listeners.delete(onBytes));
}

/** Keeps `paths` that are not kept yet, one at a time, reporting progress to `client` (a keep
 * or a visit, which the page also reads as a sign of life); resolves with what this keep did:
 * {done, total} bytes of what was missing, and `failed` ({reason, status, path, seconds: the
 * stall bound}) if it stopped. */
async function keep(paths, client, task, id) {
  const job = { done: 0, total: 0, failed: null };
  let cache;
  try {
    cache = await caches.open(SITE_CACHE);
  } catch {
    state.storage = "refused";
    return job;
  }
  const missing = [];
  for (const path of new Set(paths)) {
    if (revisionOf(path) !== null && !(await cache.match(keyOf(path, revisionOf(path), scope)))) missing.push(path);
  }
  job.total = bytesOf(site, missing);
  let reported = 0;
  const report = (partial) => {
    if (!client || (partial && Date.now() - reported < PROGRESS_MS)) return;
    reported = Date.now();
    client.postMessage({ type: "apy-offline-progress", id, done: Math.min(job.done + partial, job.total), total: job.total });
  };
  // What the visit fetched is in the HTTP cache: take it from there, even if stale (its bytes
  // are checked), rather than download it again. What the reader keeps ahead is revalidated
  // (a 304 when the HTTP cache's copy is this build's).
  const cacheMode = task === "visit" ? "force-cache" : "no-cache";
  for (const path of missing) {
    if (state.newerBuild) break;
    let partial = 0;
    try {
      await keepOne(cache, path, cacheMode, (n) => report((partial += n)));
    } catch (error) {
      job.failed = { reason: error?.reason ?? "unreachable", status: error?.status ?? null, path, seconds: STALL_MS / 1000 };
      break;
    }
    job.done += site.files[path][1];
    report(0);
  }
  return job;
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
    let job = null;
    if (message.type === "visit") {
      // What this visit needs to work offline again: what the page fetched (and what pages
      // this tab left before they were kept fetched: offline.js), itself, every language's
      // offline page, Material's scripts, and (once its Python has started) Python's own files.
      const paths = (Array.isArray(message.urls) ? message.urls : []).map((url) => listed(String(url))).filter(Boolean);
      paths.push(...Object.values(site.offline));
      // Material's scripts, which its search worker fetches on its own: the search worker,
      // the stemmers (only the built languages' are listed).
      paths.push(...Object.keys(site.files).filter((path) => path.startsWith("assets/javascripts/")));
      if (message.python) paths.push(...pythonForAVisit());
      job = await keep(paths, client, "visit", message.id);
    } else if (message.type === "keep" && (message.choice === "all" || message.choice in site.homes)) {
      job = await keep(pathsFor(site, message.choice), client, "keep", message.id);
    } else if (message.type === "remove") {
      try {
        await caches.delete(SITE_CACHE);
      } catch {
        state.storage = "refused";
      }
    } else if (message.type !== "status") {
      return;
    }
    client?.postMessage({ ...(await status()), id: message.id, job });
  };
  event.waitUntil(answer());
});
