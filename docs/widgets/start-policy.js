// When to start Python on a page with live cells: lazily, but early.
//
// Python costs about 13 MB and a couple of seconds of a core on a cold visit, so a reader
// who never gets near a cell should not pay for it; one who does should find it ready by
// the time they have read the code. So Python starts as soon as a cell is on screen or
// half a screen away (an IntersectionObserver: a cell in the first screen starts it right
// after the first layout, while the editor is still loading), and at once when the reader
// points at, touches or focuses a cell or presses Run. With Data Saver on, only the reader's
// own gesture starts it. The page's own CSS and fonts were requested from <head> before any
// of this runs, so they are not made to wait.
//
// The observer normally runs before this module: docs/overrides/main.html starts it right
// after the page's content, on the worker its <head> created (README.md, "When Python
// starts"); the rule (half a screen ahead) is the same as the fallback below, used when the
// page made no early worker.

export function startWhenUseful(session, cellRoots) {
  const start = () => session.start();
  for (const root of cellRoots) {
    root.addEventListener("pointerenter", start, { once: true });
    root.addEventListener("focusin", start, { once: true });
  }
  if (navigator.connection?.saveData) return;
  // The page's early observer (docs/overrides/main.html) watches the cells already, from right
  // after the content: it starts this session when it fires (or has started Python already).
  const early = globalThis.attentionPyBoot?.worker;
  if (early?.watching) {
    if (early.started) start();
    else early.session = session;
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      start();
    },
    { rootMargin: "50% 0px" }, // half a screen ahead of the reader
  );
  cellRoots.forEach((root) => observer.observe(root));
}
