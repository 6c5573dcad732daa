// Files between a running figure and the reader (docs/widgets/figures/figure-files.js): an imported
// file read and sent as its action, an answer's file handed over as a download (a PNG drawn
// from the SVG when asked), and the shelf of kept runs stored under the page, the figure and
// the language, within its size, and sent back when the figure starts again.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";

import { FakeElement, h, installDomGlobals } from "./fake-dom.mjs";
import { MemoryStorage } from "./fake-page.mjs";

const { FigureFiles, download } = await import("../../docs/widgets/figures/figure-files.js");

const STORE_CHARS = 1_500_000;
const KEY = "attention_py:figure-runs:/learning/#train_live:he";

let undoDom;
let queued;
beforeEach(() => {
  undoDom = installDomGlobals();
  globalThis.location = { pathname: "/learning/" };
  globalThis.localStorage = new MemoryStorage();
  queued = [];
});
afterEach(() => {
  undoDom();
  delete globalThis.location;
  delete globalThis.localStorage;
});

function figure(instance = null, ...children) {
  const root = h("div", { "data-figure": "train_live" }, ...children);
  root.lang = "he";
  const files = new FigureFiles(root, instance, (change, source, event) => queued.push({ change, source, event }));
  return { root, files };
}
const tick = () =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

describe("the shelf of kept runs", () => {
  test("kept under the page, the figure (its instance, else its name) and the language", () => {
    figure().files.store(["run 1"]);
    assert.deepEqual(JSON.parse(localStorage.getItem(KEY)), ["run 1"]);
    figure("train_live-2").files.store(["run 2"]);
    assert.ok(localStorage.getItem("attention_py:figure-runs:/learning/#train_live-2:he"));
  });

  test("what was kept comes back as do.restore when the figure starts; nothing kept: no change", () => {
    assert.equal(figure().files.restoreChange(), null);
    figure().files.store(["a", "b"]);
    assert.deepEqual(figure().files.restoreChange(), { "do.restore": ["a", "b"] });
  });

  test("a kept shelf that is not a list of texts gives back only its texts, or nothing", () => {
    localStorage.setItem(KEY, JSON.stringify(["a", 3, null, "b"]));
    assert.deepEqual(figure().files.restoreChange(), { "do.restore": ["a", "b"] });
    for (const stored of ["{broken", JSON.stringify({ runs: ["a"] }), "null"]) {
      localStorage.setItem(KEY, stored);
      assert.equal(figure().files.restoreChange(), null, stored);
    }
  });

  test("within STORE_CHARS: the oldest runs go first; none left, the key is removed", () => {
    const { files } = figure();
    const third = "x".repeat(STORE_CHARS / 3);
    files.store(["old", third, third, third]);
    assert.deepEqual(JSON.parse(localStorage.getItem(KEY)), [third, third, third], "exactly at the limit is kept");
    files.store(["y".repeat(STORE_CHARS + 1)]);
    assert.equal(localStorage.getItem(KEY), null);
    files.store(["a"]);
    files.store([]);
    assert.equal(localStorage.getItem(KEY), null);
  });

  test("answered() stores an answer's runs; no list, nothing stored", () => {
    const { files } = figure();
    files.answered({ stored: { runs: "not a list" } });
    files.answered({});
    assert.equal(localStorage.getItem(KEY), null);
    files.answered({ stored: { runs: ["r", 7] } });
    assert.deepEqual(JSON.parse(localStorage.getItem(KEY)), ["r"]);
  });

  test("storage that is blocked or full only means no copy is kept", () => {
    const { files } = figure();
    globalThis.localStorage = {
      getItem: () => {
        throw new DOMException("blocked", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
      removeItem: () => {
        throw new DOMException("blocked", "SecurityError");
      },
    };
    files.store(["a"]);
    files.store([]);
    assert.equal(files.restoreChange(), null);
  });
});

describe("import", () => {
  const fileOf = (text, size = text.length) => ({ size, text: async () => text });

  test("a file chosen in a data-import input is read as text and sent as that action; the input is reset", async () => {
    const input = h("input", { type: "file", "data-import": "do.import" });
    const { root } = figure(null, input);
    input.files = [fileOf('{"run": 1}')];
    input.value = "C:\\fakepath\\run.json";
    const event = root.fire("change", input);
    await tick();
    assert.deepEqual(queued.map((q) => q.change), [{ "do.import": '{"run": 1}' }]);
    assert.equal(queued[0].source, input);
    assert.equal(queued[0].event, event);
    assert.equal(input.value, "", "the same file may be chosen again");
  });

  test("a file over 1 MB is sent as false without being read (Python says it is too large)", async () => {
    const input = h("input", { type: "file", "data-import": "do.import" });
    const { root } = figure(null, input);
    let read = false;
    const text = async () => {
      read = true;
      return "";
    };
    input.files = [{ size: 1_000_001, text }];
    root.fire("change", input);
    await tick();
    assert.deepEqual(queued.map((q) => q.change), [{ "do.import": false }]);
    assert.equal(read, false);
    input.files = [fileOf("x".repeat(10), 1_000_000)];
    root.fire("change", input);
    await tick();
    assert.equal(queued[1].change["do.import"], "xxxxxxxxxx", "exactly 1 MB is read");
  });

  test("nothing sent: not a file input, no data-import, outside the figure, no file chosen", async () => {
    const text = h("input", { type: "text", "data-import": "do.import" });
    text.files = [fileOf("a")];
    const plain = h("input", { type: "file" });
    plain.files = [fileOf("a")];
    const none = h("input", { type: "file", "data-import": "do.import" });
    none.files = [];
    const outside = h("input", { type: "file", "data-import": "do.import" });
    outside.files = [fileOf("a")];
    const div = new FakeElement("div");
    const { root } = figure(null, text, plain, none);
    for (const target of [text, plain, none, outside, div]) root.fire("change", target);
    await tick();
    assert.deepEqual(queued, []);
  });
});

describe("downloads", () => {
  let urls;
  beforeEach((t) => {
    urls = { made: [], revoked: [] };
    t.mock.method(URL, "createObjectURL", (blob) => {
      urls.made.push(blob);
      return `blob:attention/${urls.made.length}`;
    });
    t.mock.method(URL, "revokeObjectURL", (url) => urls.revoked.push(url));
    t.mock.timers.enable({ apis: ["setTimeout"] });
  });

  /** Records each link clicked: what it downloads and whether it was in the page and hidden. */
  function watchClicks() {
    const clicks = [];
    globalThis.document.createElement = (name) => {
      const el = new FakeElement(name);
      el.click = () => clicks.push({ href: el.href, name: el.download, hidden: el.hidden, inPage: globalThis.document.body.children.includes(el) });
      return el;
    };
    return clicks;
  }

  test("download: a hidden link to the file's blob is clicked, removed, and its URL revoked a minute later", async (t) => {
    const clicks = watchClicks();
    download({ name: "runs.json", type: "application/json", text: '{"a": 1}' });
    assert.deepEqual(clicks, [{ href: "blob:attention/1", name: "runs.json", hidden: true, inPage: true }]);
    assert.equal(globalThis.document.body.children.length, 0, "the link is removed");
    assert.equal(urls.made[0].type, "application/json");
    assert.equal(await urls.made[0].text(), '{"a": 1}');
    t.mock.timers.tick(59_999);
    assert.deepEqual(urls.revoked, []);
    t.mock.timers.tick(1);
    assert.deepEqual(urls.revoked, ["blob:attention/1"]);
  });

  test("answered() hands an answer's file to the reader; a file without text is not handed", () => {
    const clicks = watchClicks();
    const { files } = figure();
    files.answered({ file: { name: "run.csv", type: "text/csv", text: 42 } });
    files.answered({ file: { name: "run.csv", type: "text/csv", text: "step,loss\n" } });
    assert.deepEqual(clicks.map((c) => c.name), ["run.csv"]);
  });

  describe("as PNG", () => {
    let canvases;
    beforeEach(() => {
      canvases = [];
      globalThis.Image = class {
        naturalWidth = 300;
        naturalHeight = 150;
        async decode() {
          if (!this.src) throw new Error("no source");
        }
      };
    });
    afterEach(() => {
      delete globalThis.Image;
    });
    function canvasGiving(blob, clicks) {
      const create = globalThis.document.createElement;
      globalThis.document.createElement = (name) => {
        if (name !== "canvas") return create(name);
        const canvas = {
          drawn: null,
          getContext: () => ({ drawImage: (image, x, y, w, hgt) => (canvas.drawn = { x, y, w, h: hgt }) }),
          toBlob: (callback, type) => callback(blob && Object.assign(blob, { asked: type })),
        };
        canvases.push(canvas);
        return canvas;
      };
      return clicks;
    }

    test("the SVG is drawn on a canvas at twice its size and downloaded as a PNG of the same name", async (t) => {
      const error = t.mock.method(console, "error", () => {});
      const clicks = canvasGiving(new Blob(["png"], { type: "image/png" }), watchClicks());
      const { files } = figure();
      files.answered({ file: { name: "loss.svg", text: "<svg/>", as: "png" } });
      for (let i = 0; i < 5 && !clicks.length; i++) await tick();
      assert.deepEqual(clicks.map((c) => c.name), ["loss.png"]);
      assert.deepEqual(canvases[0].drawn, { x: 0, y: 0, w: 600, h: 300 });
      assert.equal(urls.made[0].type, "image/svg+xml");
      assert.equal(urls.made[1].asked, "image/png");
      assert.ok(urls.revoked.includes("blob:attention/1"), "the SVG's URL is revoked once drawn");
      const failures = error.mock.calls.map((call) => String(call.arguments[0])).filter((message) => message.startsWith("figure "));
      assert.deepEqual(failures, [], "no failure reported"); // (Node's own warnings may come this way)
    });

    test("a canvas that gives no PNG is reported on the console, naming the figure and the file", async (t) => {
      const error = t.mock.method(console, "error", () => {});
      const clicks = canvasGiving(null, watchClicks());
      const { files } = figure();
      files.answered({ file: { name: "loss.svg", text: "<svg/>", as: "png" } });
      const reported = () => error.mock.calls.map((call) => String(call.arguments[0])).filter((message) => message.startsWith("figure "));
      for (let i = 0; i < 5 && !reported().length; i++) await tick();
      assert.deepEqual(clicks, []);
      assert.deepEqual(reported(), ["figure train_live: could not save loss.svg: Error: the canvas gave no PNG"]);
      assert.deepEqual(urls.revoked, ["blob:attention/1"], "revoked on failure too");
    });
  });
});
