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
// The rule for "near" is written once, in the page's early boot (page-boot.js,
// `attentionPyBoot.whenNear`); its observer normally runs before this module, right after the
// page's content, on the worker the page's <head> created (README.md, "When Python starts").

import { earlyWorker } from "./early-worker.js";

export function startWhenUseful(session, cellRoots) {
  const start = () => session.start();
  for (const root of cellRoots) {
    root.addEventListener("pointerenter", start, { once: true });
    root.addEventListener("focusin", start, { once: true });
  }
  const boot = globalThis.attentionPyBoot;
  if (boot?.gesturesOnly) return; // Data Saver (the page's connection rule, page-boot.js)
  // The early worker's rule, watching since right after the content, starts this session when
  // it fires (or now, if it has fired); without one (it could not be made), the same rule here.
  if (earlyWorker()?.handOver(session)) return;
  boot?.whenNear(cellRoots, start);
}
