// What the service worker (service-worker.js) and the page's offline control (offline.js)
// both know about the build's files: the list the build writes into sw.js
// (site_hooks/assets/offline.py) as `site`:
//   site.files   path (from the site root) -> [revision, bytes, group]
//   site.titles  page path -> its title
//   site.homes   language code -> its home ("" for the default language, "he/"...)
//   site.offline language code -> its offline page ("he/offline/index.html")
//   site.build   the build's id
// Plain functions of their arguments, tested in tests/js/offline-files.test.mjs.

/** The one cache the site keeps its files in. Keys carry the revision, so a new build never
 * answers with an old file, and the files a new build did not change are still there. */
export const SITE_CACHE = "attention-py-site";

const REVISION = "apy-revision";

/** The listed path `url` asks for, relative to `scope` (the site root), or null. A folder's
 * address is its index.html. Query and fragment are not part of it. */
export function pathOf(url, scope) {
  const target = new URL(url);
  const root = new URL(scope);
  if (target.origin !== root.origin || !target.pathname.startsWith(root.pathname)) return null;
  let path;
  try {
    path = decodeURIComponent(target.pathname.slice(root.pathname.length));
  } catch {
    return null; // a malformed escape is no file of ours
  }
  return path === "" || path.endsWith("/") ? `${path}index.html` : path;
}

/** The cache key of `path` at `revision`. */
export function keyOf(path, revision, scope) {
  const url = new URL(path, scope);
  url.searchParams.set(REVISION, revision);
  return url.href;
}

/** [path, revision] of a cache key, or null for a key that is not one of ours. */
export function parseKey(key, scope) {
  const url = new URL(key);
  const revision = url.searchParams.get(REVISION);
  if (!revision) return null;
  url.search = "";
  const path = pathOf(url.href, scope);
  return path === null ? null : [path, revision];
}

/** The address of a listed path (a page's folder, not its index.html). */
export function addressOf(path, scope) {
  return new URL(path.replace(/(^|\/)index\.html$/, "$1"), scope).href;
}

/** The language whose home holds `path` (the default language's is the site root). */
export function languageOf(path, homes) {
  let found = null;
  for (const [code, home] of Object.entries(homes)) {
    if (home && path.startsWith(home)) return code;
    if (!home) found = code;
  }
  return found;
}

/** The listed paths a reader needs to read `choice` offline: "all", or one language's pages
 * with the shared files and Python's. */
export function pathsFor(site, choice) {
  return Object.entries(site.files)
    .filter(([, [, , group]]) => choice === "all" || group === choice || group === "shared" || group === "python")
    .map(([path]) => path);
}

/** Total bytes of `paths`. */
export function bytesOf(site, paths) {
  return paths.reduce((total, path) => total + (site.files[path]?.[1] ?? 0), 0);
}
