"""Run a repository script inside Pyodide, under Node.js or in headless Chromium, for the benchmarks.

    result = in_node("bench/attention_cases.py", ["32"])
    result = in_chromium("bench/attention_cases.py", ["32"])   # where readers run it

Either way the freshly built attention_py wheel is installed, ``sys.argv`` is set, and
whatever the script writes to ``/out/result.json`` comes back as a dict. In Chromium the
script runs in a module Web Worker, as the site's live cells do, with the repository's
``bench`` folder at /repo/bench. Everything is served from this checkout
(node_modules/pyodide): nothing comes from another host.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from devtools.browser import CHROMIUM_FLAGS, chromium_path
from devtools.static_server import serve
from devtools.wheels import ROOT
from site_hooks.assets.wheels import build_attention_wheel

WORKER = r"""
import { loadPyodide } from "./pyodide/pyodide.mjs";
onmessage = async ({ data }) => {
  try {
    const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
    for (const [path, url] of Object.entries(data.files)) {
      const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      pyodide.FS.writeFile(path, bytes);
    }
    pyodide.FS.mkdirTree("/out");
    pyodide.globals.set("_argv", pyodide.toPy(data.argv));
    await pyodide.runPythonAsync(`
import runpy, site, sys, zipfile
zipfile.ZipFile("/wheels/attention_py.whl").extractall(site.getsitepackages()[0])
sys.path.insert(0, "/repo")
sys.argv = list(_argv)
runpy.run_path(sys.argv[0], run_name="__main__")
`);
    postMessage({ ok: true, result: pyodide.FS.readFile("/out/result.json", { encoding: "utf8" }) });
  } catch (error) {
    postMessage({ ok: false, error: String(error) });
  }
};
"""

PAGE = """<!doctype html><meta charset="utf-8"><title>run</title><script type="module">
const worker = new Worker("./worker.mjs", { type: "module" });
window.done = new Promise((resolve) => { worker.onmessage = ({ data }) => resolve(data); });
worker.postMessage(%s);
</script>"""


def in_node(script: str, argv: list[str]) -> dict:
    """Run ``script`` with devtools/run_in_pyodide.mjs; the dict it wrote to /out/result.json."""
    with tempfile.TemporaryDirectory() as scratch:
        wheels, out = Path(scratch, "wheels"), Path(scratch, "out")
        out.mkdir()
        build_attention_wheel(wheels)
        subprocess.run(
            ["node", "devtools/run_in_pyodide.mjs", "--wheels", str(wheels), "--out", str(out), script, *argv],
            cwd=ROOT,
            check=True,
        )
        return json.loads((out / "result.json").read_text())


def in_chromium(script: str, argv: list[str], *, timeout_s: float = 300) -> dict:
    """Run ``script`` (a path inside the repository) with ``argv``; the dict it wrote to /out/result.json."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "pyodide").symlink_to(ROOT / "node_modules" / "pyodide")
        wheel = build_attention_wheel(folder / "wheels")
        files = {"/wheels/attention_py.whl": f"./wheels/{wheel.name}"}
        for path in sorted((ROOT / "bench").glob("*.py")):
            files[f"/repo/bench/{path.name}"] = f"./repo/bench/{path.name}"
        (folder / "repo").symlink_to(ROOT)
        request = {"files": files, "argv": [f"/repo/{script}", *argv]}
        (folder / "worker.mjs").write_text(WORKER)
        (folder / "index.html").write_text(PAGE % json.dumps(request))
        with serve(folder) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            try:
                page = browser.new_page()
                page.set_default_timeout(timeout_s * 1000)
                page.goto(f"{server.url}/index.html")
                answer = page.evaluate("() => window.done")
            finally:
                browser.close()
    if not answer["ok"]:
        raise RuntimeError(f"{script} failed in Chromium: {answer['error']}")
    return json.loads(answer["result"])
