// Material's search index waits while Python starts (README.md, "When Python starts").
// Material's search worker builds its index as soon as the page has loaded: about half a
// second of one core (536 ms in a trace of a warm visit on the 2-core test machine), at the
// very time Python's worker, the files worker and the service worker need both cores. On a
// page whose Python starts at once, the index's request is held until Python is ready, the
// reader reaches for search (focus anywhere in it, which Material's keys and its button
// give), Python is not starting after all (nothing near: the early worker only preloads), or
// HOLD_MS have passed, whichever comes first. Measured with ./run bench site_load, a build
// without the index's work: Python ready warm 1,107 -> 921 ms, cold 1,329 -> 1,169 ms.
const HOLD_MS = 6000;
const SEARCH_INDEX = /\/search_index\.json$/;

/**
 * Holds the request for a search index (an XMLHttpRequest, as Material makes it) in `win`
 * until `release()`, which it returns, or one of the moments above.
 */
export function holdSearchIndex(win) {
  const proto = win.XMLHttpRequest?.prototype;
  if (!proto) return () => {};
  const { open, send } = proto;
  const held = [];
  let released = false;
  let timer = 0;
  let observer = null;
  const onFocus = (event) => {
    if (event.target?.closest?.(".md-search")) release();
  };
  function release() {
    if (released) return;
    released = true;
    clearTimeout(timer);
    observer?.disconnect();
    win.document.removeEventListener("focusin", onFocus, true);
    for (const go of held.splice(0)) go();
  }
  proto.open = function (method, url, ...rest) {
    try {
      this.apySearchIndex = SEARCH_INDEX.test(new URL(String(url), win.location.href).pathname);
    } catch {
      this.apySearchIndex = false;
    }
    return open.call(this, method, url, ...rest);
  };
  proto.send = function (...args) {
    if (released || !this.apySearchIndex) return send.apply(this, args);
    held.push(() => send.apply(this, args));
  };
  win.document.addEventListener("focusin", onFocus, true);
  timer = setTimeout(release, HOLD_MS);
  if (!win.PerformanceObserver) {
    release();
    return release;
  }
  observer = new win.PerformanceObserver((list) => {
    if (list.getEntriesByName("python:ready").length) release();
  });
  try {
    observer.observe({ type: "mark" });
  } catch {
    release();
  }
  return release;
}
