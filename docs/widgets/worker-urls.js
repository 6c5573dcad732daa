// Where the worker finds the site's files. The worker's modules sit side by side in
// docs/widgets/ and esbuild bundles them into one file, assets/widgets/python-worker.js, so
// import.meta.url names that folder either way, and every URL below is resolved against it:
// the worker finds the self-hosted runtime from /, /he/ and /fa/ pages alike, and also when
// the site lives under a sub-path. (The page starts the worker from a tiny blob: worker that
// imports it, so that it inherits the page's Content-Security-Policy; see
// `attentionPyBoot.newWorker` in docs/overrides/main.html. import.meta.url is still the
// real URL.)

/** The worker script's own URL (assets/widgets/python-worker.js once bundled). */
export const WORKER_URL = import.meta.url;
/** The self-hosted Pyodide runtime. */
export const PYODIDE_DIR = new URL("../pyodide/", WORKER_URL);
/** The attention_py wheel and manifest.json (which also names the memory snapshot). */
export const WHEELS_DIR = new URL("../wheels/", WORKER_URL);
/** The one origin code on the page may request files from (worker-network.js). */
export const SITE_ORIGIN = new URL(WORKER_URL).origin;
