// The worker's requests (docs/widgets/runtime/worker/worker-network.js): the site's files through the page's
// files worker (streamed, or whole through shared memory), the questions about the kept image,
// the network rule for reader code (this site only, GET only), and the watch that ends a
// Pyodide load that would otherwise wait for ever. Each test imports its own copy of the
// module, as each worker has its own, after putting a fake worker scope on `self`.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { PYODIDE_DIR, locateSite } from "../../docs/widgets/runtime/worker/worker-urls.js";

locateSite("https://attention.example/site/");
const ASSETS = "https://attention.example/site/assets/";

/** A synchronous XMLHttpRequest that records what it was asked and answers `reply(url)`. */
function xhrClass(reply = () => ({ status: 200, body: "" })) {
  return class FakeXMLHttpRequest {
    static opened = [];
    open(method, url, async) {
      FakeXMLHttpRequest.opened.push({ method, url, async });
      this.url = url;
    }
    send() {
      const { status, body } = reply(this.url);
      this.status = status;
      this.response = new TextEncoder().encode(body).buffer;
    }
  };
}

/** The worker's global scope: its own fetch (recorded), XMLHttpRequest, events. */
function fakeScope({ XMLHttpRequest = xhrClass(), more = {} } = {}) {
  const scope = new EventTarget();
  scope.realFetched = [];
  scope.fetch = async (input, init) => {
    scope.realFetched.push({ input, init });
    return new Response("real");
  };
  return Object.assign(scope, { XMLHttpRequest }, more);
}

/** The port to the files worker: records posts; `answer` delivers a message as the browser would. */
function filesPort() {
  const listeners = [];
  return {
    posted: [],
    started: false,
    postMessage(message, transfer) {
      this.posted.push({ message, transfer });
    },
    addEventListener: (type, listener) => listeners.push(listener),
    start() {
      this.started = true;
    },
    answer: (data, isTrusted = true) => listeners.forEach((listener) => listener({ data, isTrusted })),
    get last() {
      return this.posted.at(-1).message;
    },
  };
}

let copies = 0;
async function networkModule(scope = fakeScope()) {
  globalThis.self = scope;
  return { net: await import(`../../docs/widgets/runtime/worker/worker-network.js?copy=${++copies}`), scope };
}
afterEach(() => {
  delete globalThis.self;
});

const tick = () =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

describe("siteFetch", () => {
  test("before the page connects the worker: a rejection, no request", async () => {
    const { net } = await networkModule();
    await assert.rejects(net.siteFetch("x.json"), TypeError);
  });

  test("a file the files worker streams becomes a Response with its status, type, URL and body", async () => {
    const { net } = await networkModule();
    const port = filesPort();
    net.linkToFiles(port, null, null);
    assert.equal(port.started, true);
    const pending = net.siteFetch("../training/en.json");
    const { id, url, whole, type } = port.last;
    assert.deepEqual({ type, url, whole }, { type: "fetch", url: `${ASSETS}training/en.json`, whole: false }, "resolved against the worker's URL");
    port.answer({ type: "fetch-head", id, status: 200, statusText: "OK", contentType: "application/json" });
    port.answer({ type: "fetch-chunk", id, chunk: new TextEncoder().encode('{"a"') });
    port.answer({ type: "fetch-chunk", id, chunk: new TextEncoder().encode(": 1}") });
    port.answer({ type: "fetch-end", id });
    const response = await pending;
    assert.equal(response.status, 200);
    assert.equal(response.statusText, "OK");
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.url, `${ASSETS}training/en.json`);
    assert.deepEqual(await response.json(), { a: 1 });
  });

  test("a 404 is a response, not an error; 204 and 304 have no body", async () => {
    const { net } = await networkModule();
    const port = filesPort();
    net.linkToFiles(port, null, null);
    for (const status of [404, 204, 304]) {
      const pending = net.siteFetch("x");
      port.answer({ type: "fetch-head", id: port.last.id, status, statusText: "" });
      const response = await pending;
      assert.equal(response.status, status);
      assert.equal(response.body === null, status !== 404, String(status));
      assert.equal(response.headers.get("content-type"), null);
    }
  });

  test("a failure before the head rejects, naming the URL; after it, the body errors", async () => {
    const { net } = await networkModule();
    const port = filesPort();
    net.linkToFiles(port, null, null);
    const before = net.siteFetch("a.bin");
    port.answer({ type: "fetch-error", id: port.last.id, error: "offline" });
    await assert.rejects(before, { name: "TypeError", message: `Failed to fetch ${ASSETS}widgets/a.bin (offline)` });
    const after = net.siteFetch("b.bin");
    const { id } = port.last;
    port.answer({ type: "fetch-head", id, status: 200 });
    const response = await after;
    port.answer({ type: "fetch-chunk", id, chunk: new Uint8Array([1]) });
    port.answer({ type: "fetch-error", id, error: "connection reset" });
    await assert.rejects(response.arrayBuffer(), /connection reset/);
  });

  test("answers go to their own request; unknown ids, untrusted and empty messages are ignored", async () => {
    const { net } = await networkModule();
    const port = filesPort();
    net.linkToFiles(port, null, null);
    const first = net.siteFetch("one");
    const firstId = port.last.id;
    const second = net.siteFetch("two");
    const secondId = port.last.id;
    assert.notEqual(firstId, secondId);
    port.answer({ type: "fetch-head", id: secondId, status: 201 }, false); // not from the browser: reader code
    port.answer({ type: "fetch-head", id: 999, status: 500 });
    port.answer(null);
    port.answer({ type: "fetch-head", id: secondId, status: 202 });
    port.answer({ type: "fetch-head", id: firstId, status: 203 });
    assert.equal((await first).status, 203);
    assert.equal((await second).status, 202);
  });

  test("the files worker is linked once: a second port is not used", async () => {
    const { net } = await networkModule();
    const port = filesPort();
    const other = filesPort();
    net.linkToFiles(port, null, null);
    net.linkToFiles(other, null, null);
    net.siteFetch("x").catch(() => {});
    assert.equal(port.posted.length, 1);
    assert.equal(other.posted.length, 0);
    assert.equal(other.started, false);
  });
});

describe("askFiles", () => {
  test("before the page connects the worker: a rejection", async () => {
    const { net } = await networkModule();
    await assert.rejects(net.askFiles("read", new URL(`${ASSETS}snapshot/x.gz`)), /has not connected/);
  });

  test("asks about the kept image, handing the bytes over; the answer or its error comes back", async () => {
    const { net } = await networkModule();
    const port = filesPort();
    net.linkToFiles(port, null, null);
    const bytes = new Uint8Array([1, 2, 3]);
    const keep = net.askFiles("keep", new URL(`${ASSETS}snapshot/x.gz`), bytes);
    const { message, transfer } = port.posted.at(-1);
    assert.deepEqual({ ...message, id: 0 }, { type: "image", id: 0, op: "keep", url: `${ASSETS}snapshot/x.gz`, bytes });
    assert.deepEqual(transfer, [bytes.buffer], "transferred, not copied: the image is 31 MB");
    const read = net.askFiles("read", `${ASSETS}snapshot/x.gz`);
    assert.deepEqual(port.posted.at(-1).transfer, []);
    port.answer({ type: "image-answer", id: port.last.id, error: "storage refused" });
    port.answer({ type: "image-answer", id: message.id, value: true });
    assert.equal(await keep, true);
    await assert.rejects(read, { message: "storage refused" });
  });
});

describe("readSiteBytes (isolated frame: shared memory)", () => {
  /** The frame's shared memory, and a port whose files worker answers at once with `answer(id)`. */
  function isolated(answer) {
    const fileState = new Int32Array(new SharedArrayBuffer(12));
    const fileBytes = new SharedArrayBuffer(16, { maxByteLength: 64 });
    const port = filesPort();
    port.postMessage = function (message) {
      this.posted.push({ message });
      const reply = answer?.(message);
      if (!reply) return;
      const body = new TextEncoder().encode(reply.text);
      new Uint8Array(fileBytes).set(body);
      Atomics.store(fileState, 1, body.byteLength);
      Atomics.store(fileState, 2, reply.id ?? message.id);
      Atomics.store(fileState, 0, reply.ok === false ? 2 : 1);
    };
    return { fileState, fileBytes, port };
  }

  test("the bytes the frame put in shared memory, as a copy, for a whole-file request", async () => {
    const { net } = await networkModule();
    const { fileState, fileBytes, port } = isolated(() => ({ text: "hello" }));
    net.linkToFiles(port, fileState, fileBytes);
    const bytes = net.readSiteBytes(new URL(`${ASSETS}data/a.txt`));
    assert.equal(new TextDecoder().decode(bytes), "hello");
    assert.deepEqual({ ...port.last, id: 0 }, { type: "fetch", id: 0, url: `${ASSETS}data/a.txt`, whole: true });
    new Uint8Array(fileBytes).fill(0);
    assert.equal(new TextDecoder().decode(bytes), "hello", "a copy: the next file does not overwrite it");
  });

  test("an error the frame reports is thrown with its text", async () => {
    const { net } = await networkModule();
    const { fileState, fileBytes, port } = isolated(() => ({ ok: false, text: "HTTP 404" }));
    net.linkToFiles(port, fileState, fileBytes);
    assert.throws(() => net.readSiteBytes("x.bin"), { message: "HTTP 404" });
  });

  test("a file that never comes ends in an error after 45 s (clock faked: no real wait)", async (t) => {
    const { net } = await networkModule();
    const { fileState, fileBytes, port } = isolated(null);
    net.linkToFiles(port, fileState, fileBytes);
    let reads = 0;
    t.mock.method(performance, "now", () => (reads++ === 0 ? 1_000 : 46_000));
    assert.throws(() => net.readSiteBytes(`${ASSETS}pyodide/python_stdlib.zip`), { message: "/site/assets/pyodide/python_stdlib.zip: no answer in 45 s" });
  });

  test("a late answer to an earlier read is not taken for this one", async (t) => {
    const { net } = await networkModule();
    const { fileState, fileBytes, port } = isolated((message) => ({ id: message.id - 1, text: "the earlier file" }));
    net.linkToFiles(port, fileState, fileBytes);
    let reads = 0;
    t.mock.method(performance, "now", () => (reads++ < 2 ? 1_000 : 46_000)); // the deadline, one wait, then too late
    assert.throws(() => net.readSiteBytes("x.bin"), /no answer in 45 s/);
    assert.equal(Atomics.load(fileState, 0), 0, "the stale answer was cleared, to wait for this one's");
  });
});

describe("readSiteBytes and readSiteFile (not isolated: a synchronous request)", () => {
  test("a plain synchronous GET of the resolved URL; its bytes, or an error with the HTTP status", async () => {
    const XHR = xhrClass((url) => (url.endsWith("missing.json") ? { status: 404, body: "" } : { status: 200, body: '{"ok": true}' }));
    const { net } = await networkModule(fakeScope({ XMLHttpRequest: XHR }));
    net.linkToFiles(filesPort(), null, null);
    assert.equal(net.readSiteFile("training/en.json"), '{"ok": true}');
    assert.deepEqual(XHR.opened.at(-1), { method: "GET", url: `${ASSETS}training/en.json`, async: false });
    assert.throws(() => net.readSiteFile("training/missing.json"), { message: "/site/assets/training/missing.json: HTTP 404" });
    assert.deepEqual([...net.readSiteBytes("python_stdlib.zip")].length, 12, "relative to the worker's URL");
    assert.equal(XHR.opened.at(-1).url, `${ASSETS}widgets/python_stdlib.zip`);
  });
});

describe("guardNetwork", () => {
  class RealSocket {
    constructor(url, protocols) {
      Object.assign(this, { url, protocols });
    }
  }
  async function guarded() {
    const XHR = xhrClass();
    const scope = fakeScope({ XMLHttpRequest: XHR, more: { WebSocket: RealSocket, EventSource: RealSocket } });
    const { net } = await networkModule(scope);
    const port = filesPort();
    net.linkToFiles(port, null, null);
    net.guardNetwork();
    return { scope, port, XHR };
  }

  test("fetch of another host is refused at once (a throw, not a rejection), naming the rule", async () => {
    const { scope, port } = await guarded();
    assert.throws(() => scope.fetch("https://evil.example/steal?x=1"), {
      message: 'fetch("https://evil.example/steal?x=1") refused: code on this page may only request files of this site (https://attention.example), not other hosts',
    });
    assert.throws(() => scope.fetch(new Request("http://attention.example/")), /refused/, "another scheme is another origin");
    assert.throws(() => scope.fetch("//evil.example/x"), /refused/);
    assert.equal(port.posted.length, 0);
    assert.equal(scope.realFetched.length, 0);
  });

  test("a GET or HEAD of the site goes to the files worker, a relative URL resolved against the worker's", async () => {
    const { scope, port } = await guarded();
    scope.fetch("../training/en.json").catch(() => {});
    scope.fetch(new Request(`${ASSETS}a.json`, { method: "HEAD" })).catch(() => {});
    scope.fetch("/other", { method: "head" }).catch(() => {});
    assert.deepEqual(
      port.posted.map((p) => p.message.url),
      [`${ASSETS}training/en.json`, `${ASSETS}a.json`, "https://attention.example/other"],
    );
  });

  test("any other method is refused with a rejection", async () => {
    const { scope, port } = await guarded();
    await assert.rejects(scope.fetch("data.json", { method: "POST", body: "x" }), { name: "TypeError", message: /only GET requests/ });
    await assert.rejects(scope.fetch(new Request(`${ASSETS}x`, { method: "PUT", body: "x" })), TypeError);
    assert.equal(port.posted.length, 0);
  });

  test("blob: and data: URLs, and what is not a URL, go to the real fetch untouched", async () => {
    const { scope, port } = await guarded();
    await scope.fetch("blob:https://attention.example/1234");
    await scope.fetch("data:text/plain,hi");
    await scope.fetch("http://[bad");
    assert.deepEqual(scope.realFetched.map((f) => f.input), ["blob:https://attention.example/1234", "data:text/plain,hi", "http://[bad"]);
    assert.equal(port.posted.length, 0);
  });

  test("XMLHttpRequest.open refuses another host and opens the site's file by its full URL", async () => {
    const { scope, XHR } = await guarded();
    const request = new scope.XMLHttpRequest();
    assert.throws(() => request.open("GET", "https://evil.example/"), /^Error: XMLHttpRequest\.open\("https:\/\/evil\.example\/"\) refused/);
    request.open("GET", "data.json", false);
    assert.deepEqual(XHR.opened, [{ method: "GET", url: `${ASSETS}widgets/data.json`, async: false }]);
  });

  test("WebSocket and EventSource: the site's host only (wss: as https:); an absent one stays absent", async () => {
    const { scope } = await guarded();
    const socket = new scope.WebSocket("wss://attention.example/live", ["v1"]);
    assert.ok(socket instanceof RealSocket);
    assert.deepEqual([socket.url, socket.protocols], ["wss://attention.example/live", ["v1"]]);
    assert.throws(() => new scope.WebSocket("wss://evil.example/"), /WebSocket\("wss:\/\/evil\.example\/"\) refused/);
    assert.throws(() => new scope.EventSource("https://evil.example/events"), /EventSource/);
    assert.equal(new scope.EventSource("events").url, `${ASSETS}widgets/events`);
    assert.equal(scope.WebTransport, undefined);
  });
});

describe("failingOnAbort", () => {
  function withWatchers(scope) {
    return { fetch: scope.fetch, instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  }

  test("a load that ends well gives its value, and the watch is removed", async () => {
    const { net, scope } = await networkModule();
    const before = withWatchers(scope);
    assert.equal(await net.failingOnAbort(async () => "pyodide"), "pyodide");
    assert.deepEqual(withWatchers(scope), before);
    scope.dispatchEvent(new Event("error")); // no listener left to reject anything
  });

  test("a load that throws at once, or rejects, rejects with its error", async () => {
    const { net, scope } = await networkModule();
    const before = withWatchers(scope);
    await assert.rejects(
      net.failingOnAbort(() => {
        throw new Error("no loader");
      }),
      { message: "no loader" },
    );
    await assert.rejects(net.failingOnAbort(async () => Promise.reject(new RangeError("bad"))), RangeError);
    assert.deepEqual(withWatchers(scope), before);
  });

  test("an error nobody handles while the load waits ends it, and is handled here", async () => {
    const { net, scope } = await networkModule();
    const loading = net.failingOnAbort(() => new Promise(() => {})); // Pyodide waiting for ever
    const event = Object.assign(new Event("unhandledrejection", { cancelable: true }), { reason: new TypeError("abort(wasm)") });
    scope.dispatchEvent(event);
    await assert.rejects(loading, { message: "Python's runtime could not load (TypeError: abort(wasm))" });
    assert.equal(event.defaultPrevented, true);
  });

  test("a runtime file that fails ends the load, naming the file; a file outside the runtime is not watched", async () => {
    const responses = { "pyodide.asm.js": new Response("", { status: 503 }), "elsewhere.js": new Response("", { status: 404 }) };
    const { net, scope } = await networkModule();
    scope.fetch = async (url) => responses[String(url).split("/").pop()];
    const outside = net.failingOnAbort(async () => {
      await scope.fetch(`${ASSETS}elsewhere.js`);
      return "loaded";
    });
    assert.equal(await outside, "loaded");
    const loading = net.failingOnAbort(async () => {
      await scope.fetch(new URL("pyodide.asm.js", PYODIDE_DIR).href);
      return new Promise(() => {});
    });
    await assert.rejects(loading, { message: "pyodide.asm.js: HTTP 503" });
  });

  test("a runtime .wasm that is not WebAssembly ends the load; a real one does not", async () => {
    const wasm = (bytes) => new Response(new Uint8Array(bytes));
    const { net, scope } = await networkModule();
    let next;
    scope.fetch = async () => next;
    next = wasm([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    const good = net.failingOnAbort(async () => {
      const response = await scope.fetch(new URL("pyodide.asm.wasm", PYODIDE_DIR));
      await tick();
      await tick();
      return (await response.arrayBuffer()).byteLength;
    });
    assert.equal(await good, 8, "the caller still reads the whole file");
    next = wasm([0x3c, 0x68, 0x74, 0x6d]); // "<htm": an error page served as the wasm
    const bad = net.failingOnAbort(async () => {
      await scope.fetch(new URL("pyodide.asm.wasm", PYODIDE_DIR));
      return new Promise(() => {});
    });
    await assert.rejects(bad, { message: "pyodide.asm.wasm: not a WebAssembly module" });
  });

  test("a wasm that does not compile ends the load; WebAssembly is put back after", async () => {
    const { net } = await networkModule();
    const instantiate = WebAssembly.instantiate;
    const loading = net.failingOnAbort(() => {
      WebAssembly.instantiate(new Uint8Array([0, 1, 2, 3])).catch(() => {}); // Pyodide's loader only warns
      return new Promise(() => {});
    });
    await assert.rejects(loading, /^Error: pyodide\.asm\.wasm could not be compiled \(CompileError: /);
    assert.equal(WebAssembly.instantiate, instantiate);
  });
});
