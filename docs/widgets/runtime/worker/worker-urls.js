// Where the worker finds the site's files. The worker runs in the sandboxed frame
// (python-frame.js) from a blob: URL, so its own URL says nothing of the site: the page
// says where the site is when it connects the worker (`locateSite`, from python-worker.js's
// connect, before anything is requested), and every URL below is resolved against it: the
// worker finds the self-hosted runtime from /, /he/ and /fa/ pages alike, and also when the
// site lives under a sub-path.

/** The site's root (the folder that holds assets/). */
export let SITE_ROOT = null;
/** Where the worker's script is published (assets/widgets/python-worker.js): relative URLs code requests are resolved against it. */
export let WORKER_URL = null;
/** The self-hosted Pyodide runtime. */
export let PYODIDE_DIR = null;
/** The attention_py wheel and manifest.json (which also names the memory snapshot). */
export let WHEELS_DIR = null;
/** The one origin code on the page may request files from (worker-network.js). */
export let SITE_ORIGIN = null;

/** Sets the URLs above from the site's root, once. */
export function locateSite(root) {
  if (SITE_ROOT) return;
  SITE_ROOT = new URL(root);
  WORKER_URL = new URL("assets/widgets/python-worker.js", SITE_ROOT);
  PYODIDE_DIR = new URL("assets/pyodide/", SITE_ROOT);
  WHEELS_DIR = new URL("assets/wheels/", SITE_ROOT);
  SITE_ORIGIN = SITE_ROOT.origin;
}
