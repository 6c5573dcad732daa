// The page's requests to the site's service worker (offline.js): one message out, the
// worker's answer back, with a bound on how long the page waits. A worker that says nothing
// for `silentMs` (no progress, no answer: it was stopped by the browser, or is stuck) ends
// the wait with null, so the control never stays disabled. Tested in
// tests/js/offline-request.test.mjs.

/** How long the page waits for a sign of life from the worker: longer than the worker's own
 * bound on a download that stalls (STALL_MS, 20 s, in service-worker.js), which it reports. */
export const WORKER_SILENT_MS = 30_000;

let asked = 0;

/**
 * Posts `message` to `worker` (the registration's active worker) and resolves with its
 * "apy-offline-status" answer, or null when there is no worker or it was silent for
 * `silentMs`. `onProgress` gets each "apy-offline-progress" on the way, which also counts as a
 * sign of life. `container` is navigator.serviceWorker (where the worker's messages arrive).
 */
export function askWorker(container, worker, message, { onProgress = () => {}, silentMs = WORKER_SILENT_MS } = {}) {
  const id = `apy-${++asked}`;
  return new Promise((resolve) => {
    if (!worker) {
      resolve(null);
      return;
    }
    let timer;
    const finish = (answer) => {
      clearTimeout(timer);
      container.removeEventListener("message", listen);
      resolve(answer);
    };
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(null), silentMs);
    };
    const listen = (event) => {
      const data = event.data || {};
      if (data.id !== id) return;
      alive();
      if (data.type === "apy-offline-progress") onProgress(data);
      if (data.type === "apy-offline-status") finish(data);
    };
    container.addEventListener("message", listen);
    alive();
    try {
      worker.postMessage({ ...message, id });
    } catch {
      finish(null);
    }
  });
}
