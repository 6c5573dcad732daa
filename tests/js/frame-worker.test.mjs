// FrameWorker (docs/widgets/runtime/frame-worker.js) and RuntimeFiles (runtime-files.js) on a fake
// window: the sandboxed frame as the session sees it (a Worker), the frame's messages taken
// only from the frame, Stop's byte written in the frame, a silent frame reported broken, and
// the site's files the page fetches for the worker. tests/e2e/test_reliability.py and
// test_live_cells.py prove the same with the real frame in Chromium.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

import { serveFiles } from "../../docs/widgets/runtime/files-worker.js";
import { FrameWorker } from "../../docs/widgets/runtime/frame-worker.js";
import { EarlyFiles, RuntimeFiles } from "../../docs/widgets/runtime/runtime-files.js";

const PAGE = "https://example.org/site/he/page/";

/** A window with one frame's worth of DOM; `frames[i].sent` is what the page told frame i. */
function fakeWindow({ isolated = true, files = {} } = {}) {
  const listeners = new Set();
  const frames = [];
  const workers = [];
  const win = {
    location: { href: PAGE, origin: new URL(PAGE).origin },
    crossOriginIsolated: isolated,
    addEventListener: (type, listener) => type === "message" && listeners.add(listener),
    removeEventListener: (type, listener) => listeners.delete(listener),
    fetch: async (url) => {
      const body = files[new URL(url).pathname];
      return body === undefined ? new Response("missing", { status: 404 }) : new Response(body, { headers: { "Content-Type": "text/plain" } });
    },
    // The files worker, in process: files-worker.js's serveFiles with this window as its global.
    Worker: class {
      constructor(url, options) {
        Object.assign(this, { url, options, terminated: false });
        workers.push(this);
      }
      postMessage(message) {
        if (message.type !== "serve") return;
        this.files = serveFiles(win, message);
        this.ports = [message.worker, message.frame];
      }
      terminate() {
        this.terminated = true;
        this.files?.close();
        this.ports?.forEach((port) => port.close());
      }
    },
    document: {
      body: {
        append(frame) {
          frame.attached = true;
        },
      },
      createElement() {
        const frame = {
          attributes: {},
          dataset: {},
          style: {},
          sent: [],
          attached: false,
          setAttribute(name, value) {
            this.attributes[name] = value;
          },
          remove() {
            this.attached = false;
          },
        };
        frame.contentWindow = { postMessage: (message, origin, transfer) => frame.sent.push({ message, origin, transfer }) };
        frames.push(frame);
        return frame;
      },
    },
  };
  /** The frame (or anyone: `source`) posts `data` to the page. */
  const say = (data, source = frames[0].contentWindow) => {
    for (const listener of [...listeners]) listener({ source, data });
  };
  return { win, frames, workers, say, listeners };
}

const settle = () =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

describe("FrameWorker", () => {
  test("a sandboxed frame of opaque origin, with the frame's script inline and isolation delegated", () => {
    const { win, frames } = fakeWindow();
    new FrameWorker(win, { frameSource: "FRAME();", workerURL: "../../assets/widgets/python-worker.js" });
    const [frame] = frames;
    assert.equal(frame.attributes.sandbox, "allow-scripts", "no allow-same-origin: the frame's origin is opaque");
    assert.equal(frame.attributes.allow, "cross-origin-isolated");
    assert.equal(frame.srcdoc, '<!doctype html><meta charset="utf-8"><script>FRAME();</script>');
    assert.equal(frame.attached, true);
  });

  test("what the session posts waits for the frame, then goes over the port in order; start asks for interrupts", async () => {
    const { win, frames, workers, say } = fakeWindow({ files: { "/site/assets/widgets/python-worker.js": "WORKER" } });
    const worker = new FrameWorker(win, { frameSource: "", workerURL: "../../assets/widgets/python-worker.js" });
    worker.postMessage({ id: 0, type: "start", interruptBuffer: worker.interruptBuffer, snapshotUnwanted: "" });
    worker.postMessage({ id: 1, type: "run", code: "1" });
    say({ type: "frame-ready", isolated: true });
    await settle();
    const connect = frames[0].sent.find(({ message }) => message.type === "connect");
    assert.equal(connect.message.workerSource, "WORKER");
    assert.equal(connect.message.site, "https://example.org/site/");
    const port = connect.message.port;
    const received = [];
    port.onmessage = (event) => received.push(event.data);
    await settle();
    assert.deepEqual(
      received.map(({ id, type }) => [id, type]),
      [
        [0, "start"],
        [1, "run"],
      ],
    );
    assert.equal(received[0].interruptBuffer, null, "the byte is the frame's, not the page's");
    assert.equal(received[0].interrupts, true);
    // The worker's answers reach the session; its file requests go to the files worker, on a
    // port of their own, and whole files to the frame on the frame's.
    const heard = [];
    worker.onmessage = (event) => heard.push(event.data);
    port.postMessage({ id: 1, type: "result", status: "ok" });
    const { files, wholeFiles } = connect.message;
    const answers = [];
    files.onmessage = (event) => answers.push(event.data);
    const whole = [];
    wholeFiles.onmessage = (event) => whole.push(event.data);
    files.postMessage({ type: "fetch", id: 7, url: "https://other.example/x", whole: false });
    files.postMessage({ type: "fetch", id: 8, url: "https://example.org/site/assets/widgets/python-worker.js", whole: true });
    for (let i = 0; i < 20 && whole.length === 0; i++) await settle();
    assert.deepEqual(heard, [{ id: 1, type: "result", status: "ok" }]);
    assert.ok(answers.some((message) => message.type === "fetch-error" && message.id === 7));
    assert.equal(whole[0].id, 8);
    assert.equal(Buffer.from(whole[0].bytes).toString(), "WORKER");
    assert.deepEqual(connect.transfer, [port, files, wholeFiles]);
    worker.terminate();
    assert.equal(workers[0].terminated, true, "the files worker ends with the frame");
    for (const end of [port, files, wholeFiles]) end.close();
  });

  test("the files worker is made at once, beside the runtime's module", () => {
    const { win, workers } = fakeWindow();
    const worker = new FrameWorker(win, { frameSource: "", workerURL: "../../assets/widgets/python-worker.js" });
    assert.equal(workers.length, 1);
    assert.equal(workers[0].url, "https://example.org/site/assets/widgets/files-worker.js");
    worker.terminate();
  });

  test("a files worker that cannot load or cannot be made is reported, once", async () => {
    const { win, workers, say } = fakeWindow({ files: { "/site/assets/widgets/python-worker.js": "W" } });
    const worker = new FrameWorker(win, { frameSource: "", workerURL: "../../assets/widgets/python-worker.js" });
    const errors = [];
    worker.onerror = (event) => errors.push(event.message);
    workers[0].onerror({ message: "", preventDefault() {} });
    assert.deepEqual(errors, ["the worker that hands Python its files stopped (it could not load)"]);
    worker.terminate();

    win.Worker = class {
      constructor() {
        throw new Error("refused by policy");
      }
    };
    const refused = new FrameWorker(win, { frameSource: "", workerURL: "../../assets/widgets/python-worker.js" });
    refused.onerror = (event) => errors.push(event.message);
    say({ type: "frame-ready", isolated: true }, refused.frame.contentWindow);
    for (let i = 0; i < 10; i++) await settle();
    assert.equal(errors[1], "this browser could not make the worker that hands Python its files (refused by policy)");
    refused.terminate();
  });

  test("only the frame's own messages count", async () => {
    const { win, say } = fakeWindow();
    const worker = new FrameWorker(win, { frameSource: "", workerURL: "python-worker.js" });
    const errors = [];
    worker.onerror = (event) => errors.push(event.message);
    say({ type: "worker-error", message: "forged" }, { postMessage() {} });
    assert.deepEqual(errors, []);
    say({ type: "worker-error", message: "the worker could not load" });
    say({ type: "worker-error", message: "again" });
    assert.deepEqual(errors, ["the worker could not load"], "reported once");
    worker.terminate();
  });

  test("Stop's byte lives in the frame: writes go there, and 0 comes back once Pyodide took it", () => {
    const { win, frames, say } = fakeWindow();
    const worker = new FrameWorker(win, { frameSource: "", workerURL: "python-worker.js" });
    const buffer = worker.interruptBuffer;
    buffer[0] = 0; // unchanged: nothing sent
    buffer[0] = 2;
    assert.equal(buffer[0], 2);
    say({ type: "interrupt-seen" });
    assert.equal(buffer[0], 0);
    buffer[0] = 2;
    assert.deepEqual(
      frames[0].sent.map(({ message }) => message),
      [
        { type: "interrupt", value: 2 },
        { type: "interrupt", value: 2 },
      ],
    );
    worker.terminate();
  });

  test("a page that is not isolated offers no interrupt byte", () => {
    const { win } = fakeWindow({ isolated: false });
    const worker = new FrameWorker(win, { frameSource: "", workerURL: "python-worker.js" });
    assert.equal(worker.interruptBuffer, null);
    worker.terminate();
  });

  describe("a frame that stops answering", () => {
    beforeEach(() => {
      mock.timers.enable({ apis: ["setInterval", "setTimeout", "Date"], now: 1_000_000 });
      performance.now = () => Date.now();
    });
    afterEach(() => {
      mock.timers.reset();
      delete performance.now;
    });

    test("is reported broken after 4 s of silence; one that answers never is; a page asleep does not count", async () => {
      const { win, frames, say } = fakeWindow({ files: { "/python-worker.js": "W" } });
      const worker = new FrameWorker(win, { frameSource: "", workerURL: "https://example.org/python-worker.js" });
      const errors = [];
      worker.onerror = (event) => errors.push(event.message);
      say({ type: "frame-ready", isolated: true });
      for (let i = 0; i < 20 && !worker.port; i++) await settle();
      assert.ok(worker.port, "connected");
      for (let second = 0; second < 10; second++) {
        mock.timers.tick(1000);
        const pings = frames[0].sent.filter(({ message }) => message.type === "ping");
        say({ type: "pong", n: pings.at(-1).message.n });
      }
      assert.deepEqual(errors, []);
      mock.timers.tick(60_000); // the page's own timers were held back (a hidden tab): not the frame's fault
      assert.deepEqual(errors, []);
      for (let second = 0; second < 5; second++) mock.timers.tick(1000); // no answer now
      assert.equal(errors.length, 1);
      assert.match(errors[0], /stopped answering/);
      worker.terminate();
    });
  });

  test("terminate removes the frame and ignores it from then on", () => {
    const { win, frames, say, listeners } = fakeWindow();
    const worker = new FrameWorker(win, { frameSource: "", workerURL: "python-worker.js" });
    worker.terminate();
    assert.equal(frames[0].attached, false);
    assert.equal(listeners.size, 0);
    const errors = [];
    worker.onerror = (event) => errors.push(event);
    say({ type: "worker-error", message: "late" });
    assert.deepEqual(errors, []);
  });
});

describe("RuntimeFiles", () => {
  function files(bodies) {
    const { win } = fakeWindow({ files: bodies });
    const toWorker = [];
    const toFrame = [];
    const runtime = new RuntimeFiles(
      win,
      (message) => toWorker.push(message),
      (message) => toFrame.push(message),
    );
    return { runtime, toWorker, toFrame };
  }

  test("a file of the site is streamed to the worker: head, chunks, end", async () => {
    const { runtime, toWorker } = files({ "/site/assets/a.json": "[1, 2]" });
    assert.equal(runtime.handles({ type: "fetch", id: 1, url: "https://example.org/site/assets/a.json", whole: false }), true);
    for (let i = 0; i < 10; i++) await settle();
    assert.equal(toWorker[0].type, "fetch-head");
    assert.equal(toWorker[0].status, 200);
    const body = Buffer.concat(toWorker.filter((m) => m.type === "fetch-chunk").map((m) => m.chunk)).toString();
    assert.equal(body, "[1, 2]");
    assert.equal(toWorker.at(-1).type, "fetch-end");
  });

  test("a file the worker waits for goes whole to the frame, an HTTP error as an error", async () => {
    const { runtime, toFrame } = files({ "/site/assets/a.json": "[1]" });
    runtime.handles({ type: "fetch", id: 2, url: "https://example.org/site/assets/a.json", whole: true });
    runtime.handles({ type: "fetch", id: 3, url: "https://example.org/site/assets/none.json", whole: true });
    for (let i = 0; i < 10; i++) await settle();
    const byId = Object.fromEntries(toFrame.map((m) => [m.id, m]));
    assert.equal(Buffer.from(byId[2].bytes).toString(), "[1]");
    assert.equal(byId[2].ok, true);
    assert.equal(byId[3].ok, false);
    assert.match(byId[3].error, /HTTP 404/);
  });

  test("another host is refused; so is a flood of requests past the bound", async () => {
    const { runtime, toWorker } = files({});
    runtime.handles({ type: "fetch", id: 1, url: "https://other.example/a", whole: false });
    await settle();
    assert.deepEqual(toWorker[0], { type: "fetch-error", id: 1, error: "https://other.example/a is not a file of this site" });
    runtime.close(); // nothing is served: requests pile up
    runtime.closed = false;
    runtime.next = () => {};
    for (let id = 10; id < 10 + 270; id++) runtime.handles({ type: "fetch", id, url: "https://example.org/x", whole: false });
    const refused = toWorker.filter((m) => m.type === "fetch-error" && m.id >= 10);
    assert.deepEqual(
      refused.map((m) => m.id),
      [274, 275, 276, 277, 278, 279],
      "264 at once (8 running, 256 waiting); each further request is refused",
    );
    assert.match(refused[0].error, /more than 264 requests at once/);
  });

  test("what Python asks for first is fetched once, when the page says Python starts, and taken once", async () => {
    const { win } = fakeWindow({ files: { "/site/assets/pyodide/pyodide.asm.wasm": "WASM" } });
    const fetched = [];
    const fetchFile = win.fetch;
    win.fetch = (url, options) => {
      fetched.push(url);
      return fetchFile(url, options);
    };
    const early = new EarlyFiles(win);
    const wasm = "https://example.org/site/assets/pyodide/pyodide.asm.wasm";
    early.start([wasm, "https://other.example/x.wasm"], "");
    assert.deepEqual(fetched, [wasm], "another host's file is not fetched");
    const toWorker = [];
    const runtime = new RuntimeFiles(win, (message) => toWorker.push(message), () => {}, early);
    runtime.handles({ type: "fetch", id: 1, url: wasm, whole: false });
    runtime.handles({ type: "fetch", id: 2, url: wasm, whole: false });
    for (let i = 0; i < 20; i++) await settle();
    assert.deepEqual(fetched, [wasm, wasm], "the first request took the early one; the second fetched again");
    for (const id of [1, 2]) {
      const chunks = toWorker.filter((m) => m.id === id && m.type === "fetch-chunk").map((m) => m.chunk);
      assert.equal(Buffer.concat(chunks).toString(), "WASM");
    }
    early.drop();
  });

  test("the kept image read ahead answers the first read of its URL only", async () => {
    const { win } = fakeWindow();
    const early = new EarlyFiles(win);
    const image = "https://example.org/site/assets/snapshot/python-1.gz";
    early.image = { href: image, bytes: Promise.resolve(new Uint8Array([1, 2, 3])) }; // as start() leaves it
    assert.equal(early.takeImage("https://example.org/site/assets/snapshot/python-2.gz"), null);
    assert.deepEqual(await early.takeImage(image), new Uint8Array([1, 2, 3]));
    assert.equal(early.takeImage(image), null, "taken once");
  });
});
