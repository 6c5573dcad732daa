// The page's early boot: `window.attentionPyBoot`, made while the page parses, on the pages
// with a live cell or a figure (README.md, "When Python starts"). scripts/build-widgets.mjs
// bundles page-boot-entry.js, which calls bootPage(window), as a classic script that
// docs/overrides/main.html writes inline in <head>, after the stylesheets and before any
// other script, so it runs at once and costs no request. What it needs from the build (the
// worker's URL, the preload files, the snapshot) the template gives as JSON in
// <script type="application/json" id="apy-boot-config">.
//
// It (1) applies the connection rule, the one place it is written: on Data Saver or a
// connection slower than 4g the memory snapshot is not used (python-session.js hands this
// answer to every worker it starts); (2) holds the one way to make a Python worker, to send it
// its first request, and the start rule (`newWorker`, `startWorker`, `whenNear`), which the
// page's modules use too; (3) unless Data Saver is on, creates the Python worker (owned by
// early-worker.js), which loads its code and waits: a worker's start needs the page's thread, which the page's scripts keep
// busy later. Python itself starts only by the start policy: the observer main.html starts
// right after the content (`attentionPyBoot.worker.watch`) or the reader's gesture
// (start-policy.js); PythonSession then adopts this worker. When nothing is near at the first
// layout, the observer preloads Python's big files at low priority instead (the snapshot only
// when the rule allows it).
//
// Everything the browser gives is read from `win` (the window; a stand-in in
// tests/js/page-boot.test.mjs).

import { EarlyWorker } from "./early-worker.js";
import { FrameWorker } from "../runtime/frame-worker.js";
import { holdSearchIndex } from "./search-hold.js";
import { START } from "../runtime/messages.js";

// The sandboxed frame's script (python-frame.js), exactly as the build bundled it into
// assets/widgets/python-frame.js: scripts/build-widgets.mjs defines it (the page's CSP allows
// that text, inline in the frame's srcdoc, by its hash). Tests give their own.
const FRAME_SOURCE = typeof __PYTHON_FRAME__ === "string" ? __PYTHON_FRAME__ : "";

export const BOOT_CONFIG_ID = "apy-boot-config";

/**
 * The connection rule: `gesturesOnly` (Data Saver: no early worker, no preload, no observer;
 * only a gesture starts Python) and `snapshotUnwanted`, why the memory snapshot is not to be
 * used ("" when it is). `connection` is `navigator.connection`, absent outside Chromium.
 */
export function connectionRule(connection) {
  return {
    gesturesOnly: Boolean(connection && connection.saveData),
    snapshotUnwanted: !connection
      ? ""
      : connection.saveData
        ? "the browser asks to save data"
        : connection.effectiveType && connection.effectiveType !== "4g"
          ? `a ${connection.effectiveType} connection`
          : "",
  };
}

/** `attentionPyBoot` without its early worker (`worker: null`); `config` is the template's JSON. */
export function createBoot(win, config) {
  const boot = {
    ...connectionRule(win.navigator.connection),
    worker: null,
    /* A new Python worker, the one way the page makes one (python-session.js makes its fresh
       ones here too): in a sandboxed frame of its own (frame-worker.js), so the code a reader
       runs reaches nothing of the site. The frame's srcdoc inherits this page's CSP
       (connect-src ...), and the worker it starts from a blob: URL inherits the frame's. */
    newWorker() {
      const options = { frameSource: FRAME_SOURCE, workerURL: config.worker, firstFiles: firstFiles(boot, config) };
      return win.makePythonWorker ? win.makePythonWorker(options) : new FrameWorker(win, options); // tests/js give a stand-in
    },
    /* Sends a worker the session's first request, the one way it is sent (python-session.js
       too); returns what the session keeps of it. Interrupts need shared memory, which
       browsers allow only to cross-origin isolated pages and frames. */
    startWorker(worker) {
      const startedAt = win.performance.now();
      win.performance.mark("python:start");
      const interruptBuffer = worker.interruptBuffer ?? null; // the frame's byte (frame-worker.js)
      worker.postMessage({ id: 0, type: START, interruptBuffer, snapshotUnwanted: boot.snapshotUnwanted });
      return { startedAt, interruptBuffer };
    },
    /* The start policy's rule, the one place it is written (start-policy.js has the
       gestures): onNear() once a cell or figure is on screen or half a screen away;
       ifFar() once, when none is at the first layout. False when it cannot watch. */
    whenNear(roots, onNear, ifFar = () => {}) {
      if (!roots.length || !win.IntersectionObserver) return false;
      let first = true;
      const observer = new win.IntersectionObserver(
        (entries) => {
          const near = entries.some((entry) => entry.isIntersecting);
          if (first && !near) ifFar();
          first = false;
          if (!near) return;
          observer.disconnect();
          onNear();
        },
        { rootMargin: "50% 0px" },
      );
      roots.forEach((root) => observer.observe(root));
      return true;
    },
  };
  return boot;
}

// The standard library's archive (the whole or the build's core of it, stdlib_core.py).
const STDLIB_ARCHIVE = /\/python_stdlib(_core)?\.zip$/;

/**
 * What Python asks for first, as the connection rule decides: `snapshot`, the memory image's
 * URL ("" when it is not to be used), and `files`, Python's big files but for the standard
 * library when there is an image (a restore needs the image, not the standard library,
 * stdlib_on_demand.py).
 */
export function firstFiles(boot, config) {
  const snapshot = config.snapshot && !boot.snapshotUnwanted ? config.snapshot : "";
  return { snapshot, files: snapshot ? config.preload.filter((href) => !STDLIB_ARCHIVE.test(href)) : config.preload };
}

/** Python's big files as low-priority preloads (firstFiles: the image's gzip among them). */
export function preloadPython(win, boot, config) {
  const { snapshot, files } = firstFiles(boot, config);
  // Offline, a kept image is read from Cache Storage and the gzip is not kept (offline.js), so
  // it is not asked for.
  const hrefs = snapshot && win.navigator?.onLine !== false ? [snapshot, ...files] : files;
  for (const href of hrefs) {
    const link = Object.assign(win.document.createElement("link"), { rel: "preload", as: "fetch", crossOrigin: "anonymous", href });
    link.setAttribute("fetchpriority", "low");
    link.dataset.python = "";
    win.document.head.append(link);
  }
}

/**
 * Creates the early worker (early-worker.js, its owner) as `boot.worker`, the one place it is
 * set. Without one (it could not be made), the preloads start at once instead. While Python
 * may start at once, Material's search index waits for it (search-hold.js); when nothing is
 * near at the first layout (the preloads start instead), it waits no longer.
 */
export function createEarlyWorker(win, boot, config) {
  const releaseSearch = holdSearchIndex(win);
  const preload = () => {
    releaseSearch();
    preloadPython(win, boot, config);
  };
  let worker;
  try {
    worker = boot.newWorker();
  } catch {
    preload(); // no early worker: at least the downloads start now
    return;
  }
  boot.worker = new EarlyWorker(worker, boot, preload);
}

/** The whole early boot: `win.attentionPyBoot`, and the early worker unless Data Saver is on. */
export function bootPage(win) {
  const config = JSON.parse(win.document.getElementById(BOOT_CONFIG_ID).textContent);
  const boot = (win.attentionPyBoot = createBoot(win, config));
  if (!boot.gesturesOnly) createEarlyWorker(win, boot, config);
  return boot;
}
