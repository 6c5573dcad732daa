// The runtime's files worker: a dedicated worker of the site's origin that the page makes
// beside each Python frame (frame-worker.js), and that answers the Python worker's requests
// for the site's files (runtime-files.js) and its questions about the kept memory image
// (image-cache.js). It is a worker of the page, so the site's service worker serves its
// requests from the checked copies, offline too, as it serves the page; and it has a thread
// of its own, so no answer, streamed chunk or check of the kept image waits for the page's
// scripts (Material's, the editor's, the figures') to let go of the page's thread.
//
// The page sends it two messages, once each, in either order:
//   {type: "prefetch", files, image}  Python is starting: what it will ask for first (URLs of
//                                     the runtime's files; the memory image's, or ""), read
//                                     now and handed over when asked (EarlyFiles)
//   {type: "serve", worker, frame}    `worker`: the port the Python worker asks on, and where
//                                     streamed answers go; `frame`: the port to the frame, for
//                                     the whole files the worker waits for synchronously
// Reader code in the Python worker can reach neither port (python-worker.js keeps its end
// in module scope), and this worker takes messages from nothing else.
import { EarlyFiles, RuntimeFiles } from "./runtime-files.js";

/**
 * Answers the Python worker on `worker` for good, fetching with `scope` (this worker's
 * global) or taking what `early` read ahead; whole files go to `frame`. Returns the
 * RuntimeFiles doing it.
 */
export function serveFiles(scope, { worker, frame }, early = null) {
  const files = new RuntimeFiles(
    scope,
    (message, transfer) => worker.postMessage(message, transfer),
    (message, transfer) => frame.postMessage(message, transfer),
    early,
  );
  worker.onmessage = (event) => files.handles(event.data);
  return files;
}

// In the files worker itself (not when a test imports this module): the page's messages.
if (globalThis.WorkerGlobalScope && globalThis instanceof globalThis.WorkerGlobalScope) {
  const early = new EarlyFiles(self);
  let serving = false;
  self.onmessage = (event) => {
    const { type, files, image, worker, frame } = event.data || {};
    if (type === "prefetch") early.start(files, image);
    else if (type === "serve" && worker && frame && !serving) {
      serving = true;
      serveFiles(self, { worker, frame }, early);
    }
  };
}
