// When to start Python on a page with live cells: lazily, but early.
//
// Python costs about 13 MB and a few seconds of a core on a cold visit, so a reader who
// never gets near a cell should not pay for it; but one who does should find it ready by
// the time they have read the code. So: start as soon as a cell is (nearly) on screen once
// the page itself has finished loading and the browser is idle, and at once when the reader
// points at, touches or focuses a cell (or presses Run). With Data Saver on, only the
// reader's own gesture starts it.

export function startWhenUseful(session, cellRoots) {
  const start = () => session.start();
  for (const root of cellRoots) {
    root.addEventListener("pointerenter", start, { once: true });
    root.addEventListener("focusin", start, { once: true });
  }
  if (navigator.connection?.saveData) return;
  whenPageIdle(() => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        start();
      },
      { rootMargin: "50% 0px" }, // half a screen ahead of the reader
    );
    cellRoots.forEach((root) => observer.observe(root));
  });
}

function whenPageIdle(callback) {
  const onIdle = () =>
    "requestIdleCallback" in window ? requestIdleCallback(callback, { timeout: 2000 }) : setTimeout(callback, 200);
  if (document.readyState === "complete") onIdle();
  else window.addEventListener("load", onIdle, { once: true });
}
