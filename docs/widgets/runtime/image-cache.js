// The inflated memory image, kept in Cache Storage by the page for the next visit (README.md,
// "The memory snapshot"): reading its 31 MB from there takes about a third of the time of
// inflating the 6.7 MB gzip again. The Python worker, in its sandboxed frame, has no Cache
// Storage; it asks the page's files worker (runtime-files.js), which checks what it keeps and
// hands over against the build's manifest, which it reads itself: an image is kept, and given back,
// only when its length and SHA-256 are the ones the build recorded. One image per site:
// keeping a new one deletes the others. Its key is the gzip's URL (a digest name) with
// "?inflated".
const IMAGE_CACHE = "attention-py-python-image";
const imageKey = (url) => `${url.href}?inflated`;

/** What the build's manifest says of the image at `url` ({bytes, sha256}), or null. */
async function expected(scope, url) {
  const manifestURL = new URL("../wheels/manifest.json", url); // the image is in assets/snapshot/
  const response = await scope.fetch(manifestURL.href);
  if (!response.ok) return null;
  const manifest = await response.json();
  if (!manifest.snapshot || !url.pathname.endsWith(`/${manifest.snapshot}`)) return null;
  if (!manifest.snapshot_memory || !manifest.snapshot_sha256) return null;
  return { bytes: manifest.snapshot_memory, sha256: manifest.snapshot_sha256 };
}

/** Hex SHA-256 of `bytes`. */
async function sha256(scope, bytes) {
  const hash = new Uint8Array(await scope.crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The kept image for `url` (a Uint8Array), or null (none, changed, no Cache Storage here). */
export async function keptImage(scope, url) {
  try {
    if (!scope.caches || !scope.crypto?.subtle) return null;
    const cache = await scope.caches.open(IMAGE_CACHE);
    const found = await cache.match(imageKey(url));
    if (!found) return null;
    const build = await expected(scope, url);
    const bytes = new Uint8Array(await found.arrayBuffer());
    if (build && bytes.byteLength === build.bytes && (await sha256(scope, bytes)) === build.sha256) return bytes;
    console.info("attention_py: the Python memory image kept by an earlier visit was changed; it is deleted and the build's copy is used");
    await cache.delete(imageKey(url));
  } catch {
    // Storage refused or broken: the network copy will do.
  }
  return null;
}

/**
 * Keeps the image the worker restored from the network (after Python is ready); true once it
 * is stored, false when it is not the build's image or cannot be kept here.
 */
export async function keepImage(scope, url, bytes) {
  if (!scope.caches || !scope.crypto?.subtle) return false;
  const build = await expected(scope, url);
  if (!build || bytes.byteLength !== build.bytes || (await sha256(scope, bytes)) !== build.sha256) return false;
  const cache = await scope.caches.open(IMAGE_CACHE);
  for (const request of await cache.keys()) {
    if (request.url !== imageKey(url)) await cache.delete(request);
  }
  await cache.put(imageKey(url), new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  return true;
}

/** Forgets a kept image Pyodide refused, or whose Python failed. */
export async function forgetImage(scope, url) {
  if (scope.caches) await (await scope.caches.open(IMAGE_CACHE)).delete(imageKey(url));
}
