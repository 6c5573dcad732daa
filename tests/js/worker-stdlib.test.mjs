// The standard library in parts (docs/widgets/runtime/worker/worker-stdlib.js): stdlib_on_demand.py's finder
// is set up in Python with an `install` that reads python_stdlib.zip synchronously and writes
// it over the partial archive on sys.path. The module imports the .py file as text (the
// bundler's text loader); here a module hook does the same, and a fake Pyodide records what
// Python is asked.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { register } from "node:module";
import { test } from "node:test";

// A .py file imported from JavaScript is its text, as scripts/build-widgets.mjs bundles it.
const hooks = `
export async function load(url, context, nextLoad) {
  if (!url.endsWith(".py")) return nextLoad(url, context);
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(new URL(url), "utf8");
  return { format: "module", source: "export default " + JSON.stringify(text) + ";", shortCircuit: true };
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

const PY_SOURCE = readFileSync(new URL("../../docs/widgets/runtime/python/stdlib_on_demand.py", import.meta.url), "utf8");
const STDLIB = new Uint8Array([0x50, 0x4b, 3, 4, 9, 9]);

/** A synchronous XMLHttpRequest (the frame is not isolated) that serves python_stdlib.zip. */
class FakeXMLHttpRequest {
  static opened = [];
  open(method, url, async) {
    FakeXMLHttpRequest.opened.push({ method, url, async });
    this.url = url;
  }
  send() {
    const found = this.url.endsWith("/assets/pyodide/python_stdlib.zip");
    this.status = found ? 200 : 404;
    this.response = found ? STDLIB.slice().buffer : new ArrayBuffer(0);
  }
}

globalThis.self = { fetch: async () => new Response(""), XMLHttpRequest: FakeXMLHttpRequest };
const { locateSite } = await import("../../docs/widgets/runtime/worker/worker-urls.js");
locateSite("https://attention.example/site/");
const { stdlibOnDemand } = await import("../../docs/widgets/runtime/worker/worker-stdlib.js");
delete globalThis.self;

/** What the module needs of Pyodide: runPython, globals.get, FS.writeFile; all recorded. */
function fakePyodide(archive = "/lib/python314.zip") {
  const py = { ran: [], written: [], setUp: null, destroyed: false, install: null };
  py.runPython = (code) => {
    py.ran.push(code);
    return code.includes("sys.path") ? archive : undefined;
  };
  py.globals = {
    get: (name) => {
      assert.equal(name, "_stdlib_on_demand");
      const setUp = (install) => {
        py.install = install;
      };
      setUp.destroy = () => {
        py.destroyed = true;
      };
      return setUp;
    },
  };
  py.FS = { writeFile: (path, bytes) => py.written.push({ path, bytes }) };
  return py;
}

test("the finder is set up from stdlib_on_demand.py, its name removed from Python's globals, the proxy released", () => {
  const py = fakePyodide();
  stdlibOnDemand(py);
  assert.equal(py.ran.length, 3);
  assert.match(py.ran[0], /next\(p for p in sys\.path if p\.endswith\('\.zip'\)\)/, "the archive: the .zip on sys.path");
  assert.equal(py.ran[1], PY_SOURCE, "the .py file's text, run as it is");
  assert.equal(py.ran[2], "del _stdlib_on_demand");
  assert.equal(typeof py.install, "function");
  assert.equal(py.destroyed, true);
  assert.deepEqual(py.written, [], "nothing is downloaded until code needs a module");
});

test("install: the whole python_stdlib.zip, read synchronously from the site, over the partial archive", () => {
  const py = fakePyodide("/lib/python_stdlib_core.zip");
  stdlibOnDemand(py);
  py.install();
  assert.deepEqual(FakeXMLHttpRequest.opened.at(-1), { method: "GET", url: "https://attention.example/site/assets/pyodide/python_stdlib.zip", async: false });
  assert.equal(py.written.length, 1);
  assert.equal(py.written[0].path, "/lib/python_stdlib_core.zip", "the archive Python started with, found on sys.path");
  assert.deepEqual(py.written[0].bytes, STDLIB);
});
