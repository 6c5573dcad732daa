// The snapshot boot: Python restored from the build's memory image (docs/widgets/README.md,
// "The memory snapshot"), taken from the copy an earlier visit kept (worker-image-cache.js) or
// inflated from the build's gzip while it arrives. Anything unexpected ends in the plain boot
// (worker-boot.js): the reader sees nothing, the console says why.
import runtimeSource from "../python/session_runtime.py";
import { describe } from "./worker-describe.js";
import { canKeepImages, forgetImage, keepImage, keptImage } from "./worker-image-cache.js";
import { failingOnAbort } from "./worker-network.js";
import { stdlibOnDemand } from "./worker-stdlib.js";
import { PYODIDE_DIR, WHEELS_DIR } from "./worker-urls.js";

// An empty zip archive: the end-of-central-directory record and nothing else.
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

/**
 * The memory snapshot the manifest names, as {name, url, bytes, from, image, ...}, where
 * `image` is a promise of the decompressed image (Pyodide awaits it, so the download overlaps
 * loading Pyodide's script); null when there is none to use (then the reason, if any, is
 * thrown). `unwanted` is why the page's connection rule says not to use it (or ""); `steps`
 * gets how long reading the image took (ms since `t0`); `onKept(bytes)` is told when the image
 * is read from the kept copy, so those bytes are not downloaded.
 */
export function snapshotToRestore(manifest, { unwanted, t0, steps, onKept }) {
  if (!manifest.snapshot) return null; // a build without one (no Node.js there): nothing to say
  // The page's connection rule (docs/overrides/main.html): on Data Saver or a connection
  // slower than 4g, the image's 6.7 MB would cost more time than the restore saves.
  if (unwanted) {
    console.info(`attention_py: booting Python without the memory snapshot (${unwanted})`);
    return null;
  }
  if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream");
  const url = new URL(`../snapshot/${manifest.snapshot}`, WHEELS_DIR);
  const expected = manifest.snapshot_memory || 0;
  const digest = manifest.snapshot_sha256 || "";
  const snapshot = { name: manifest.snapshot, url, digest, bytes: manifest.snapshot_bytes || 0, from: null, image: null, pristine: null };
  snapshot.image = (async () => {
    const started = performance.now();
    // A reader who was here before: the image as the last visit inflated it (see keepImage).
    const kept = expected && digest ? await keptImage(url, expected) : null;
    if (kept) {
      snapshot.from = "cache";
      onKept(snapshot.bytes);
      steps.cacheRead = performance.now() - started;
      steps.image = performance.now() - t0;
      return kept;
    }
    const response = await fetch(url); // the global fetch: the progress bar counts these bytes
    if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
    const bytes = await readImage(response.body, expected, url.pathname);
    // Pyodide restores in place: the buffer it is given is not the image afterwards. What is
    // kept for the next visit is this copy, as it arrived (its digest is checked then).
    if (digest && canKeepImages) snapshot.pristine = bytes.slice();
    snapshot.from = "network";
    steps.inflate = performance.now() - started;
    steps.image = performance.now() - t0;
    return bytes;
  })();
  snapshot.image.catch(() => {}); // reported where awaited
  return snapshot;
}

/**
 * Python restored from `snapshot` (a promise of snapshotToRestore's answer), as
 * `{python, why}`: `python` is {pyodide, runtime, from, restoredFromKept, keepImage} or null,
 * `why` the reason a snapshot there was could not be used ("" when there was none to use).
 * A kept image Pyodide refused is forgotten.
 */
export async function restoreSnapshot(loadPyodide, snapshot) {
  let found;
  try {
    found = await snapshot;
  } catch (error) {
    return { python: null, why: describe(error) };
  }
  if (!found) return { python: null, why: "" };
  try {
    const { pyodide, runtime } = await failingOnAbort(() => restore(loadPyodide, found));
    const pristine = found.pristine;
    found.pristine = null;
    return {
      python: {
        pyodide,
        runtime,
        from: found.from,
        // Forgotten if this Python fails: the next start inflates the build's copy again.
        restoredFromKept: found.from === "cache" ? found.url : null,
        // Housekeeping for after "ready": keeping the image for the next visit (true once kept).
        keepImage: pristine ? () => keepImage(found.url, pristine) : null,
      },
      why: "",
    };
  } catch (error) {
    if (found.from === "cache") forgetImage(found.url).catch(() => {});
    return { python: null, why: describe(error) };
  }
}

/**
 * The image from the response body, inflated while it arrives (reading 6.7 MB from the HTTP
 * cache and inflating them overlap) into one buffer of the size the manifest gives. A host
 * that sent the file with Content-Encoding: gzip has inflated it already (no gzip magic).
 * Throws on a corrupt gzip or a length other than `expected` (when given).
 */
async function readImage(body, expected, name) {
  const reader = body.getReader();
  const first = await reader.read();
  const head = first.value || new Uint8Array(0);
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  const whole = new ReadableStream({
    start(controller) {
      if (head.byteLength) controller.enqueue(head);
      if (first.done) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const stream = gzipped ? whole.pipeThrough(new DecompressionStream("gzip")) : whole;
  if (!expected) return new Uint8Array(await new Response(stream).arrayBuffer());
  const bytes = new Uint8Array(expected);
  let length = 0;
  const chunks = stream.getReader();
  for (;;) {
    const { done, value } = await chunks.read();
    if (done) break;
    if (length + value.byteLength > expected) {
      chunks.cancel();
      length += value.byteLength;
      break;
    }
    bytes.set(value, length);
    length += value.byteLength;
  }
  if (length !== expected) {
    throw new Error(`${name}: ${length > expected ? "more than " : ""}${length} bytes after decompression, the manifest says ${expected}`);
  }
  return bytes;
}

/**
 * Pyodide restored from the build's memory image (private, experimental API of Pyodide
 * 314.0.7), with the image's session runtime: {pyodide, runtime}. Pyodide itself refuses an
 * image of another build; the image's session runtime must be exactly the one bundled here.
 * Throws otherwise (the caller boots normally).
 */
async function restore(loadPyodide, snapshot) {
  // The standard library's archive is not downloaded to start: an empty one stands in for it
  // until code imports a module the image does not hold (stdlibOnDemand).
  const emptyArchive = URL.createObjectURL(new Blob([EMPTY_ZIP], { type: "application/zip" }));
  let pyodide;
  try {
    pyodide = await loadPyodide({
      indexURL: PYODIDE_DIR.href,
      stdLibURL: emptyArchive,
      _loadSnapshot: snapshot.image,
      stdout: () => {},
      stderr: () => {},
    });
  } finally {
    URL.revokeObjectURL(emptyArchive);
  }
  stdlibOnDemand(pyodide);
  const runtime = pyodide.runPython("import sys; sys.modules.get('_session_runtime')");
  const made = runtime && runtime.__snapshot__;
  const source = made && made.get("source");
  made?.destroy?.();
  if (source !== runtimeSource) {
    runtime?.destroy?.();
    throw new Error(`${snapshot.name} was made with another session_runtime.py`);
  }
  // The image froze the state of `random` (if anything imported it): every page would draw
  // the same numbers. A fresh seed from the browser's entropy, as a normal boot has.
  pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
  return { pyodide, runtime };
}
