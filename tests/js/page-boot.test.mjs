// The page's early boot (docs/widgets/boot/page-boot.js) on a fake window: the connection rule, the
// start rule (whenNear) with an IntersectionObserver the test fires, the early worker and the
// preloads. tests/e2e/test_snapshot.py and test_live_cells.py check the same in Chromium.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { bootPage, connectionRule, createBoot, createEarlyWorker } from "../../docs/widgets/boot/page-boot.js";
import { FakeElement, PAGE_URL, fakeWindow, observerFactory } from "./fake-page.mjs";
import { workerFactory } from "./fake-worker.mjs";

const CONFIG = {
  worker: "../assets/widgets/python-worker.js",
  preload: ["../assets/pyodide/pyodide.asm.wasm", "../assets/pyodide/python_stdlib_core.zip"],
  snapshot: "../assets/snapshot/python-abc.gz",
};

describe("the connection rule", () => {
  const cases = [
    ["no Network Information API (Firefox, Safari)", undefined, { gesturesOnly: false, snapshotUnwanted: "" }],
    ["4g", { effectiveType: "4g", saveData: false }, { gesturesOnly: false, snapshotUnwanted: "" }],
    ["3g", { effectiveType: "3g", saveData: false }, { gesturesOnly: false, snapshotUnwanted: "a 3g connection" }],
    ["slow-2g", { effectiveType: "slow-2g" }, { gesturesOnly: false, snapshotUnwanted: "a slow-2g connection" }],
    ["no effectiveType", { saveData: false }, { gesturesOnly: false, snapshotUnwanted: "" }],
    ["Data Saver on 4g", { effectiveType: "4g", saveData: true }, { gesturesOnly: true, snapshotUnwanted: "the browser asks to save data" }],
    ["Data Saver on 3g", { effectiveType: "3g", saveData: true }, { gesturesOnly: true, snapshotUnwanted: "the browser asks to save data" }],
  ];
  for (const [name, connection, expected] of cases) {
    test(name, () => {
      assert.deepEqual(connectionRule(connection), expected);
      const boot = createBoot(fakeWindow({ connection }), CONFIG);
      assert.deepEqual({ gesturesOnly: boot.gesturesOnly, snapshotUnwanted: boot.snapshotUnwanted }, expected);
    });
  }
});

describe("whenNear", () => {
  function watching() {
    const { IntersectionObserver, observers } = observerFactory();
    const boot = createBoot(fakeWindow({ IntersectionObserver }), CONFIG);
    const roots = [new FakeElement("div"), new FakeElement("div")];
    const calls = { near: 0, far: 0 };
    const watched = boot.whenNear(
      roots,
      () => (calls.near += 1),
      () => (calls.far += 1),
    );
    return { watched, observer: observers[0], roots, calls };
  }

  test("watches every root with half a screen of margin", () => {
    const { watched, observer, roots } = watching();
    assert.equal(watched, true);
    assert.deepEqual(observer.observed, roots);
    assert.equal(observer.options.rootMargin, "50% 0px");
  });

  test("near at the first layout: onNear once, never ifFar", () => {
    const { observer, roots, calls } = watching();
    observer.fire([roots[1]]);
    assert.deepEqual(calls, { near: 1, far: 0 });
    assert.equal(observer.disconnected, true);
  });

  test("far at the first layout: ifFar once; onNear once a root comes near", () => {
    const { observer, roots, calls } = watching();
    observer.fire([]);
    observer.fire([]); // scrolling, still far: ifFar is for the first layout only
    assert.deepEqual(calls, { near: 0, far: 1 });
    assert.equal(observer.disconnected, false);
    observer.fire([roots[0]]);
    assert.deepEqual(calls, { near: 1, far: 1 });
    assert.equal(observer.disconnected, true);
  });

  test("nothing to watch, or no IntersectionObserver: false, and nothing is called", () => {
    const { IntersectionObserver, observers } = observerFactory();
    const boot = createBoot(fakeWindow({ IntersectionObserver }), CONFIG);
    assert.equal(
      boot.whenNear([], () => assert.fail("near")),
      false,
    );
    assert.equal(observers.length, 0);
    const old = createBoot(fakeWindow({ IntersectionObserver: undefined }), CONFIG);
    assert.equal(old.whenNear([new FakeElement("div")], () => assert.fail("near")), false);
  });
});

describe("workers", () => {
  test("newWorker: a fresh worker (a frame-hosted one in the page) for each call, of the config's script", () => {
    const { Worker, workers } = workerFactory();
    const boot = createBoot(fakeWindow({ Worker }), CONFIG);
    boot.newWorker();
    boot.newWorker();
    assert.equal(workers.length, 2);
    assert.notEqual(workers[0], workers[1]);
    assert.equal(workers[0].url, new URL(CONFIG.worker, PAGE_URL).href);
  });

  test("startWorker: the first request, with a shared interrupt buffer only when isolated", () => {
    for (const isolated of [false, true]) {
      const { Worker } = workerFactory();
      const boot = createBoot(fakeWindow({ Worker, crossOriginIsolated: isolated, connection: { effectiveType: "3g" } }), CONFIG);
      const worker = boot.newWorker();
      const { interruptBuffer } = boot.startWorker(worker);
      const [start] = worker.posted;
      assert.equal(start.id, 0);
      assert.equal(start.type, "start");
      assert.equal(start.snapshotUnwanted, "a 3g connection");
      if (isolated) {
        assert.ok(interruptBuffer.buffer instanceof SharedArrayBuffer);
        interruptBuffer[0] = 2;
        assert.equal(worker.interruptBuffer[0], 2, "the session writes the worker's own byte");
      } else {
        assert.equal(interruptBuffer, null);
        assert.equal(start.interruptBuffer, null);
      }
    }
  });
});

describe("bootPage", () => {
  const preloads = (win) => win.document.head.children.map((link) => [link.href, link.getAttribute("fetchpriority")]);

  function page({ connection, Worker } = {}) {
    const { IntersectionObserver, observers } = observerFactory();
    const win = fakeWindow({ connection, Worker, IntersectionObserver, config: CONFIG });
    const boot = bootPage(win);
    return { win, boot, observers };
  }

  test("is window.attentionPyBoot, with an early worker that waits for the start rule", () => {
    const { Worker, workers } = workerFactory();
    const { win, boot } = page({ Worker });
    assert.equal(win.attentionPyBoot, boot);
    assert.equal(workers.length, 1);
    assert.equal(boot.worker.worker, workers[0]);
    assert.deepEqual(workers[0].posted, [], "Python does not start on load");
    workers[0].send({ type: "progress", phase: "download", loaded: 1, total: 2 });
    assert.deepEqual(boot.worker.messages, [{ type: "progress", phase: "download", loaded: 1, total: 2 }], "kept for the session");
  });

  test("a root near at the first layout starts the early worker, without preloads", () => {
    const { Worker, workers } = workerFactory();
    const { win, boot, observers } = page({ Worker });
    const roots = [new FakeElement("div")];
    boot.worker.watch(roots);
    assert.equal(boot.worker.watching, true);
    observers[0].fire(roots);
    assert.equal(boot.worker.started, true);
    assert.deepEqual(
      workers[0].posted.map((message) => message.type),
      ["start"],
    );
    assert.deepEqual(preloads(win), []);
  });

  test("nothing near: Python's big files are preloaded at low priority, the image instead of the standard library", () => {
    const { win, boot, observers } = page({ Worker: workerFactory().Worker });
    boot.worker.watch([new FakeElement("div")]);
    observers[0].fire([]);
    assert.equal(boot.worker.started, false);
    assert.deepEqual(preloads(win), [
      [CONFIG.snapshot, "low"],
      [CONFIG.preload[0], "low"],
    ]);
    const [link] = win.document.head.children;
    assert.deepEqual([link.rel, link.as, link.crossOrigin, link.dataset.python], ["preload", "fetch", "anonymous", ""]);
  });

  test("nothing near on a slow connection: the normal boot's files, no image", () => {
    const { win, boot, observers } = page({ Worker: workerFactory().Worker, connection: { effectiveType: "3g" } });
    boot.worker.watch([new FakeElement("div")]);
    observers[0].fire([]);
    assert.deepEqual(
      preloads(win).map(([href]) => href),
      CONFIG.preload,
    );
  });

  test("no early worker can be made: the files are preloaded at once", () => {
    const { Worker } = workerFactory({ refuse: new Error("workers are off") });
    const { win, boot } = page({ Worker });
    assert.equal(boot.worker, null);
    assert.equal(preloads(win).length, 2);
  });

  test("Data Saver: no early worker, no preload", () => {
    const { Worker, workers } = workerFactory();
    const { win, boot } = page({ Worker, connection: { effectiveType: "4g", saveData: true } });
    assert.equal(boot.gesturesOnly, true);
    assert.equal(boot.worker, null);
    assert.equal(workers.length, 0);
    assert.deepEqual(preloads(win), []);
  });

  test("an early worker that failed to load is not started", () => {
    const { Worker, workers } = workerFactory();
    const { boot } = page({ Worker });
    const event = workers[0].crash("404");
    assert.equal(event.defaultPrevented, true);
    boot.worker.start();
    assert.equal(boot.worker.failed, true);
    assert.deepEqual(workers[0].posted, []);
  });

  test("once a session has adopted the early worker, the start rule starts the session", () => {
    const { boot } = page({ Worker: workerFactory().Worker });
    let started = 0;
    assert.equal(boot.worker.adopt({ start: () => (started += 1) }).started, false);
    boot.worker.start();
    assert.equal(started, 1);
    assert.equal(boot.worker.started, false);
  });
});

describe("the early worker and the start policy", () => {
  function watched({ near }) {
    const { IntersectionObserver, observers } = observerFactory();
    const { Worker, workers } = workerFactory();
    const win = fakeWindow({ Worker, IntersectionObserver, config: CONFIG });
    const boot = bootPage(win);
    const roots = [new FakeElement("div")];
    boot.worker.watch(roots);
    if (near) observers[0].fire(roots);
    let started = 0;
    const session = { start: () => (started += 1) };
    return { boot, observers, roots, session, workers, started: () => started };
  }

  test("handed the session before the rule fires: the rule starts the session", () => {
    const { boot, observers, roots, session, started, workers } = watched({ near: false });
    assert.equal(boot.worker.handOver(session), true);
    assert.equal(started(), 0);
    observers[0].fire(roots);
    assert.equal(started(), 1);
    assert.deepEqual(workers[0].posted, [], "the session sends the first request, not the rule");
  });

  test("handed the session after the rule fired: the session starts at once", () => {
    const { boot, session, started } = watched({ near: true });
    assert.equal(boot.worker.handOver(session), true);
    assert.equal(started(), 1);
  });

  test("nothing watching: the start policy watches itself", () => {
    const { Worker } = workerFactory();
    const win = fakeWindow({ Worker, config: CONFIG });
    const boot = bootPage(win);
    assert.equal(boot.worker.handOver({ start() {} }), false);
  });
});

test("createEarlyWorker leaves the early worker on the boot object", () => {
  const { Worker, workers } = workerFactory();
  const win = fakeWindow({ Worker });
  const boot = createBoot(win, CONFIG);
  createEarlyWorker(win, boot, CONFIG);
  assert.equal(boot.worker.worker, workers[0]);
});
