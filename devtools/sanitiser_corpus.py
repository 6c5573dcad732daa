"""Runs a published sanitiser test corpus against the figures' sanitiser, in Chromium.

    .venv/bin/python -m devtools.sanitiser_corpus path/to/DOMPurify/test/fixtures/expect.mjs

The corpus (DOMPurify's ``test/fixtures/expect.mjs``: payloads that broke sanitisers) is not
part of this repository and is not on npm: clone cure53/DOMPurify and pass the file. Each
payload is put inside a figure root, cleaned by ``docs/widgets/figures/figure-sanitise.js``
(``parseFigure``, bundled with esbuild) and inserted into a live page whose alert, confirm,
prompt and print record calls. Reported: payloads whose script ran (at once or within 3 s),
requests to other pages or dialogs, elements or attributes left that could run or load
anything, and payloads the sanitiser refused by throwing (a figure then shows its error).
The result is recorded in docs/widgets/README.md ("Figure markup goes through an allow-list").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

from devtools.browser import CHROMIUM_FLAGS, chromium_path
from devtools.static_server import serve
from devtools.wheels import ROOT

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script>window.__hits = []; for (const n of ["alert", "confirm", "prompt", "print"]) window[n] = (...a) => window.__hits.push(n);</script>
<script src="sanitise.js"></script></head><body><div id="live"></div></body></html>"""
CHECK = """(payload) => {
  const live = document.getElementById("live");
  live.textContent = "";
  let el;
  try { el = parseFigure('<div class="apy-fig" data-state="{}">' + payload + "</div>"); } catch (e) { return {error: String(e)}; }
  if (el) live.append(el);
  const bad = [];
  for (const node of live.querySelectorAll("*")) {
    for (const name of node.getAttributeNames()) {
      const value = node.getAttribute(name);
      if (/^on/i.test(name) || /^(href|src|xlink:href|action|formaction|srcdoc|data)$/i.test(name) || /url\\(|javascript:/i.test(value)) bad.push(name + " on " + node.localName);
    }
    if (/^(script|iframe|object|embed|style|link|img|image|a|form|foreignobject|use|animate|set|math|base|meta|template)$/i.test(node.localName)) bad.push("<" + node.localName + ">");
  }
  return {bad};
}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="DOMPurify's test/fixtures/expect.mjs")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    listing = subprocess.run(
        [
            "node",
            "-e",
            f"import({json.dumps(args.corpus.resolve().as_uri())}).then((m) => console.log(JSON.stringify(m.default)))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    cases = json.loads(listing.stdout)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        (out / "entry.js").write_text(
            f'import {{ parseFigure }} from "{ROOT}/docs/widgets/figures/figure-sanitise.js";\nwindow.parseFigure = parseFigure;\n'
        )
        subprocess.run(
            [
                str(ROOT / "node_modules" / ".bin" / "esbuild"),
                str(out / "entry.js"),
                "--bundle",
                "--format=iife",
                "--loader:.json=json",
                f"--outfile={out / 'sanitise.js'}",
                "--log-level=error",
            ],
            check=True,
        )
        (out / "page.html").write_text(PAGE)
        with serve(out) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            page = browser.new_page()
            outside: list[str] = []
            page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server.url) else None)
            page.on("dialog", lambda d: (outside.append(f"dialog: {d.message}"), d.dismiss()))
            page.goto(f"{server.url}/page.html")
            results = [(case.get("title", ""), page.evaluate(CHECK, case["payload"])) for case in cases]
            time.sleep(3)  # timers and loads get their chance
            ran = page.evaluate("window.__hits")
            browser.close()
    left = [(title, r["bad"]) for title, r in results if r.get("bad")]
    refused = [(title, r["error"]) for title, r in results if r.get("error")]
    print(
        f"{len(cases)} payloads: script ran {len(ran)} times; requests or dialogs: {len(outside)}; "
        f"payloads leaving anything that could run or load: {len(left)}; refused by an exception: {len(refused)}"
    )
    for title, detail in left[:10] + refused[:10]:
        print(f"  {title}: {detail}")
    return 1 if ran or outside or left else 0


if __name__ == "__main__":
    raise SystemExit(main())
