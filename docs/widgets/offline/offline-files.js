// What the service worker (service-worker.js) and the page's offline control (offline.js)
// both know about the build's files: the list the build writes into sw.js
// (site_hooks/assets/offline.py) as `site`:
//   site.files   path (from the site root) -> [revision, bytes, group]
//   site.titles  page path -> its title
//   site.homes   language code -> its home ("" for the default language, "he/"...)
//   site.offline language code -> its offline page ("he/offline/index.html")
//   site.types   file extension (".css") -> the Content-Type a kept file of that name is served with
//   site.words   language code -> {dir, repair_page_title, repair_page_done, repair_page_continue}:
//                what the worker's own repair page says (docs/figure-strings/<lang>.yml, `page`)
//   site.build   the build's id
// Plain functions of their arguments, tested in tests/js/offline-files.test.mjs.

/** The one cache the site keeps its files in. Keys carry the revision, so a new build never
 * answers with an old file, and the files a new build did not change are still there. */
export const SITE_CACHE = "attention-py-site";

const REVISION = "apy-revision";

/** Every cache of the site's (the kept files, the Python memory image of
 * worker-image-cache.js): what a repair drops. Other sites on the same origin keep theirs. */
export const isSiteCache = (name) => name.startsWith("attention-py-");

/** The query parameter that asks the service worker to repair the site on this device:
 * `<any page>?apy-repair` drops every kept copy and reloads the page without it. */
export const REPAIR = "apy-repair";

/** The address of `url` that asks for a repair ("…/he/learning/?apy-repair"). */
export function repairAddress(url) {
  const target = new URL(url);
  target.hash = "";
  target.searchParams.set(REPAIR, "");
  return target.href.replace(`${REPAIR}=`, REPAIR);
}

/** `url` without the repair parameter: the page a repair reloads. */
export function withoutRepair(url) {
  const target = new URL(url);
  target.searchParams.delete(REPAIR);
  return target.href;
}

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

/** The Content-Type a kept file is served with: the build's, from its name (`types`), never
 * what was stored with it (anything of the site's origin can write Cache Storage). */
export function typeOf(path, types) {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return (dot > 0 && types[name.slice(dot).toLowerCase()]) || "application/octet-stream";
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The service worker's own page after a repair, in the page's language (`strings`:
 * site.words[lang], the page strings it needs): it needs no file of the site (no styles, no
 * scripts) and goes on to `next` after a second by itself, so it works however broken the
 * kept copy was. */
export function repairPage(lang, strings, next) {
  return `<!doctype html>
<html lang="${escape(lang)}" dir="${strings.dir === "rtl" ? "rtl" : "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="1; url=${escape(next)}">
<title>${escape(strings.repair_page_title)}</title>
<style>body{font:1.1rem/1.6 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style>
</head>
<body>
<h1>${escape(strings.repair_page_title)}</h1>
<p>${escape(strings.repair_page_done)}</p>
<p><a href="${escape(next)}">${escape(strings.repair_page_continue)}</a></p>
</body>
</html>
`;
}
