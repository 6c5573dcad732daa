// The inflated memory image, kept in Cache Storage after a restore from the network
// (keepImage): on the next visit reading its 31 MB from there takes about a third of the time
// of inflating the 6.7 MB gzip again (docs/widgets/README.md, "The memory snapshot"). One
// image per site: keeping a new one deletes the others. Its key is the gzip's URL (a digest
// name) with "?inflated". Code in the page can rewrite Cache Storage (through `js`, or a
// nested worker), so a kept image is used only when its SHA-256 is the one the build recorded
// in the manifest, and it is deleted when it is not, or when a Python restored from it fails.
const IMAGE_CACHE = "attention-py-python-image";
const imageKey = (url) => `${url.href}?inflated`;

// Taken when the worker starts, before any reader code runs (it may replace the globals, not
// these). Both exist in secure contexts only.
const cacheStorage = self.caches || null;
const digestOf = self.crypto?.subtle ? crypto.subtle.digest.bind(crypto.subtle) : null;

/** The kept image for `url`, or null (none, another length or digest, no Cache Storage here). */
export async function keptImage(url, expected, digest) {
  try {
    if (!cacheStorage) return null; // not a secure context
    const cache = await cacheStorage.open(IMAGE_CACHE);
    const found = await cache.match(imageKey(url));
    if (!found) return null;
    const bytes = new Uint8Array(await found.arrayBuffer());
    if (bytes.byteLength === expected && (await sha256(bytes)) === digest) return bytes;
    console.info("attention_py: the Python memory image kept by an earlier visit was changed; it is deleted and the build's copy is used");
    await cache.delete(imageKey(url));
  } catch {
    // Storage refused or broken: the network copy will do.
  }
  return null;
}

/** True when an image could be kept here, and checked when it is read back. */
export const canKeepImages = Boolean(cacheStorage && digestOf);

/**
 * Keeps the image just restored from the network for the next visit (after Python is ready);
 * true once it is stored. (It arrived whole: gzip's own checksum and the length were checked.)
 */
export async function keepImage(url, bytes) {
  if (!canKeepImages) return false; // without a way to check it later, nothing is kept
  const cache = await cacheStorage.open(IMAGE_CACHE);
  for (const request of await cache.keys()) {
    if (request.url !== imageKey(url)) await cache.delete(request);
  }
  await cache.put(imageKey(url), new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  return true;
}

/** Forgets a kept image Pyodide refused, or whose Python failed (the next visit inflates the network copy again). */
export async function forgetImage(url) {
  if (cacheStorage) await (await cacheStorage.open(IMAGE_CACHE)).delete(imageKey(url));
}

/** Hex SHA-256 of `bytes`. */
async function sha256(bytes) {
  if (!digestOf) return "";
  const hash = new Uint8Array(await digestOf("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}
