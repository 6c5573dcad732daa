// Bundles the browser side of the site (docs/widgets/) with esbuild, from node_modules only.
//
//   node scripts/build-widgets.mjs --outdir <dir> [--dev]
//
// Writes into <dir> (the site publishes every file under assets/widgets/):
//   live-cells.js       module entry, loaded on pages with a cell (docs/overrides/main.html);
//                       tiny: with the small session chunks it imports statically
//                       (chunk-*.js) it starts Python when a cell is near, then imports the cells
//   live-cells-page-*.js  the cells' chunk (CodeMirror, cells, strings); content-hashed,
//                       so a new build never meets a stale cached copy
//   figures.js          module entry of the figure host, loaded on pages with a figure; tiny,
//                       it imports the rest
//   figure-page-*.js, chunk-*.js  its chunk, and the chunks shared with the live cells
//                       (the Python session: one module, so one session per page)
//   python-worker.js    the module Web Worker that runs Pyodide
//   files-worker.js     the page's worker that fetches the site's files for Python (a classic
//                       worker script)
//   page-boot.js        the page's early boot (page-boot-entry.js), a classic script (IIFE)
//                       that docs/overrides/main.html writes inline in <head>
//                       (site_hooks/content/figure_pages.py reads it from here)
//   python-frame.js     the script of the sandboxed frame that hosts Python (a classic
//                       script): page-boot.js carries its exact text and writes it inline
//                       into the frame's srcdoc; the page's CSP allows it by its hash
//   offline.js          module entry on every page: registers the service worker, draws the
//                       offline reading control
//   service-worker.js   the service worker (classic script, Workbox bundled in), which the
//                       build publishes as sw.js with its file list (site_hooks/assets/offline.py)
//   live-cells.css      styles
// Minified; --dev adds linked source maps and skips minification.
import { build } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const widgets = join(root, "docs", "widgets");
const args = process.argv.slice(2);
const outIndex = args.indexOf("--outdir");
const outdir = resolve(outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1] : join(root, "build", "widgets"));
const dev = args.includes("--dev");

// What Pyodide fetches while it loads, uncompressed, for the worker's progress bar (its lock
// file too, but the site serves it with no package listed: a few hundred bytes, not counted).
const pyodideDir = join(root, "node_modules", "pyodide");
const pyodideDownloadBytes = ["pyodide.asm.wasm", "python_stdlib.zip"]
  .map((name) => statSync(join(pyodideDir, name)).size)
  .reduce((a, b) => a + b, 0);

// Old chunks have content hashes in their names: start from an empty folder of ours.
mkdirSync(outdir, { recursive: true });
for (const name of readdirSync(outdir)) {
  if (/^(live-cells|figure|offline|service-worker|python-worker|files-worker|python-frame|page-boot|chunk-).*\.(js|css|map)$/.test(name)) rmSync(join(outdir, name));
}

const common = {
  bundle: true,
  minify: !dev,
  sourcemap: dev ? "linked" : false,
  target: ["es2022"],
  legalComments: "none",
  logLevel: "warning",
  absWorkingDir: root,
  outdir,
};

// The frame's script first: the early boot carries its text. No source map (it runs from a
// srcdoc, and its bytes must be exactly the file's).
await build({
  ...common,
  entryPoints: { "python-frame": join(widgets, "runtime", "python-frame.js") },
  format: "iife",
  sourcemap: false,
});
const frameSource = readFileSync(join(outdir, "python-frame.js"), "utf8");

await Promise.all([
  // The page side, split so that pages without cells or figures load only the small
  // entries. One build for both entries: the session module they share lands in one chunk.
  build({
    ...common,
    entryPoints: {
      "live-cells": join(widgets, "cells", "live-cells.js"),
      figures: join(widgets, "figures", "figure-entry.js"),
      offline: join(widgets, "offline", "offline.js"),
    },
    format: "esm",
    splitting: true,
    chunkNames: "[name]-[hash]",
  }),
  // The worker: one file; it imports pyodide.mjs itself at run time, by URL.
  build({
    ...common,
    entryPoints: { "python-worker": join(widgets, "runtime", "worker", "python-worker.js") },
    format: "esm",
    loader: { ".py": "text" },
    define: { __PYODIDE_DOWNLOAD_BYTES__: String(pyodideDownloadBytes) },
  }),
  // The files worker (files-worker.js): a classic worker script, made by the page beside each
  // Python frame; it answers Python's requests for the site's files.
  build({
    ...common,
    entryPoints: { "files-worker": join(widgets, "runtime", "files-worker.js") },
    format: "iife",
  }),
  // The early boot: one classic script, run inline before anything else on the page, so it
  // must not import anything at run time (an IIFE, not a module). Its source map, in --dev,
  // is inline too: a linked one would be looked for next to the page.
  build({
    ...common,
    entryPoints: { "page-boot": join(widgets, "boot", "page-boot-entry.js") },
    format: "iife",
    define: { __PYTHON_FRAME__: JSON.stringify(frameSource) },
    sourcemap: dev ? "inline" : false,
  }),
  build({
    ...common,
    entryPoints: { "live-cells": join(widgets, "cells", "live-cells.css") },
  }),
  // The service worker: a classic script with Workbox inside (a module worker is not
  // everywhere yet); site_hooks/assets/offline.py puts the build's file list in front of it
  // and publishes it as sw.js at the site root.
  build({
    ...common,
    entryPoints: { "service-worker": join(widgets, "offline", "service-worker.js") },
    format: "iife",
    define: { "process.env.NODE_ENV": '"production"' },
  }),
]);

for (const name of readdirSync(outdir).sort()) {
  if (/^(live-cells|figure|offline|service-worker|python-worker|files-worker|python-frame|page-boot|chunk-)/.test(name)) {
    console.log(`${name}\t${statSync(join(outdir, name)).size} bytes`);
  }
}
