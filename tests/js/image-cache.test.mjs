// The inflated memory image kept in Cache Storage for the next visit
// (docs/widgets/runtime/image-cache.js): kept and given back only when its length and SHA-256 are the
// build's (the manifest's), one image per site, and never an error for the caller.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { beforeEach, describe, test } from "node:test";

import { forgetImage, keepImage, keptImage } from "../../docs/widgets/runtime/image-cache.js";

const SITE = "https://attention.example/assets/";
const IMAGE_NAME = "snapshot-0123abcd.bin.gz";
const IMAGE_URL = new URL(`snapshot/${IMAGE_NAME}`, SITE);
const KEY = `${IMAGE_URL.href}?inflated`;
const IMAGE = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** Cache Storage in memory: named caches of URL -> Response, keys as Requests. */
class MemoryCache {
  constructor() {
    this.entries = new Map();
  }
  async match(key) {
    return this.entries.get(String(key))?.clone();
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
  async delete(key) {
    return this.entries.delete(key instanceof Request ? key.url : String(key));
  }
  async put(key, response) {
    this.entries.set(String(key), response);
  }
}

/** The files worker's scope: Cache Storage, the manifest fetch, and real SubtleCrypto. */
function scopeWith({ manifest = { snapshot: IMAGE_NAME, snapshot_memory: IMAGE.byteLength, snapshot_sha256: sha(IMAGE) }, status = 200 } = {}) {
  const named = new Map();
  const fetched = [];
  return {
    named,
    fetched,
    caches: { open: async (name) => named.get(name) ?? named.set(name, new MemoryCache()).get(name) },
    crypto: globalThis.crypto,
    fetch: async (url) => {
      fetched.push(url);
      return new Response(JSON.stringify(manifest), { status });
    },
  };
}
const cacheOf = async (scope) => scope.caches.open("attention-py-python-image");

let scope;
beforeEach(() => {
  scope = scopeWith();
});

describe("keepImage", () => {
  test("keeps the build's image under the gzip's URL with ?inflated, reading the manifest beside it", async () => {
    assert.equal(await keepImage(scope, IMAGE_URL, IMAGE), true);
    assert.deepEqual(scope.fetched, ["https://attention.example/assets/wheels/manifest.json"]);
    const cache = await cacheOf(scope);
    assert.deepEqual([...cache.entries.keys()], [KEY]);
    assert.deepEqual(new Uint8Array(await (await cache.match(KEY)).arrayBuffer()), IMAGE);
  });

  test("one image per site: keeping a new one deletes the others", async () => {
    const cache = await cacheOf(scope);
    await cache.put("https://attention.example/assets/snapshot/snapshot-old.bin.gz?inflated", new Response("old"));
    await keepImage(scope, IMAGE_URL, IMAGE);
    assert.deepEqual([...cache.entries.keys()], [KEY]);
  });

  test("refuses an image that is not the build's: other length, other digest, other file, no manifest", async () => {
    const changed = IMAGE.slice();
    changed[0] = 9;
    assert.equal(await keepImage(scope, IMAGE_URL, IMAGE.slice(1)), false, "length");
    assert.equal(await keepImage(scope, IMAGE_URL, changed), false, "digest");
    assert.equal(await keepImage(scope, new URL("snapshot/snapshot-other.bin.gz", SITE), IMAGE), false, "not the manifest's snapshot");
    assert.equal(await keepImage(scopeWith({ status: 404 }), IMAGE_URL, IMAGE), false, "no manifest");
    assert.equal(await keepImage(scopeWith({ manifest: { snapshot: IMAGE_NAME } }), IMAGE_URL, IMAGE), false, "a manifest without length and digest");
    assert.equal((await cacheOf(scope)).entries.size, 0);
  });

  test("a snapshot name that only ends like the manifest's is not it", async () => {
    assert.equal(await keepImage(scope, new URL(`snapshot/x${IMAGE_NAME}`, SITE), IMAGE), false);
  });

  test("no Cache Storage or no SubtleCrypto here: not kept, nothing asked", async () => {
    assert.equal(await keepImage({ ...scope, caches: undefined }, IMAGE_URL, IMAGE), false);
    assert.equal(await keepImage({ ...scope, crypto: {} }, IMAGE_URL, IMAGE), false);
    assert.deepEqual(scope.fetched, []);
  });
});

describe("keptImage", () => {
  test("gives back the kept image when it is still the build's", async () => {
    await keepImage(scope, IMAGE_URL, IMAGE);
    assert.deepEqual(await keptImage(scope, IMAGE_URL), IMAGE);
  });

  test("nothing kept: null, without reading the manifest", async () => {
    assert.equal(await keptImage(scope, IMAGE_URL), null);
    assert.deepEqual(scope.fetched, []);
  });

  test("a kept image that was changed, or that this build does not list, is deleted and not given", async (t) => {
    const info = t.mock.method(console, "info", () => {});
    const cache = await cacheOf(scope);
    const changed = IMAGE.slice();
    changed[7] = 0;
    await cache.put(KEY, new Response(changed));
    assert.equal(await keptImage(scope, IMAGE_URL), null);
    assert.equal(cache.entries.size, 0);
    const noManifest = scopeWith({ status: 500 });
    await (await cacheOf(noManifest)).put(KEY, new Response(IMAGE));
    assert.equal(await keptImage(noManifest, IMAGE_URL), null, "no manifest to check it against");
    assert.equal((await cacheOf(noManifest)).entries.size, 0);
    const rebuilt = scopeWith({ manifest: { snapshot: "snapshot-new.bin.gz", snapshot_memory: 8, snapshot_sha256: sha(IMAGE) } });
    await (await cacheOf(rebuilt)).put(KEY, new Response(IMAGE));
    assert.equal(await keptImage(rebuilt, IMAGE_URL), null);
    assert.equal((await cacheOf(rebuilt)).entries.size, 0);
    assert.equal(info.mock.callCount(), 3);
  });

  test("a kept image of another length is refused before its 31 MB are hashed", async (t) => {
    t.mock.method(console, "info", () => {});
    let digests = 0;
    const digest = (...args) => {
      digests += 1;
      return globalThis.crypto.subtle.digest(...args);
    };
    const counting = { ...scope, crypto: { subtle: { digest } } };
    await (await cacheOf(counting)).put(KEY, new Response(IMAGE.slice(1)));
    assert.equal(await keptImage(counting, IMAGE_URL), null);
    assert.equal(digests, 0);
  });

  test("storage that throws, or no Cache Storage: null, never an error", async () => {
    const broken = { ...scope, caches: { open: async () => Promise.reject(new DOMException("denied", "SecurityError")) } };
    assert.equal(await keptImage(broken, IMAGE_URL), null);
    assert.equal(await keptImage({ ...scope, caches: undefined }, IMAGE_URL), null);
    assert.equal(await keptImage({ ...scope, crypto: undefined }, IMAGE_URL), null);
  });
});

describe("forgetImage", () => {
  test("deletes the kept image of that URL only; without Cache Storage it does nothing", async () => {
    await keepImage(scope, IMAGE_URL, IMAGE);
    const cache = await cacheOf(scope);
    await cache.put("https://attention.example/other?inflated", new Response("x"));
    await forgetImage(scope, IMAGE_URL);
    assert.deepEqual([...cache.entries.keys()], ["https://attention.example/other?inflated"]);
    await forgetImage({ caches: undefined }, IMAGE_URL);
  });
});
