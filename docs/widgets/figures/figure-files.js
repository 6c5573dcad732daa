// Files between a running figure and the reader (attention_py/figures/README.md, "Actions"):
// train_live's shelf of kept runs.
//
// - Import: a file chosen in an `<input type="file" data-import="do.import">` is read as
//   text and sent as that action; Python checks it (a refusal is shown like a bad value).
// - Export: an answer with a `file` ({name, type, text, as}) is handed to the reader as a
//   download; `as: "png"` first draws the SVG on a canvas.
// - Storage: an answer with `stored` ({runs: [file text, ...]}) is kept in localStorage,
//   under the page, the figure and the language, within STORE_CHARS (the oldest runs go
//   first); when the host starts, what was kept is sent back as `do.restore`, so the shelf
//   survives a reload. Storage that is blocked or full only means no copy is kept.

const STORE_CHARS = 1_500_000; // about 3 MB of UTF-16: well inside a browser's 5 MB per site
const MAX_FILE_BYTES = 1_000_000; // larger files are refused without being read (Python says why)
const PNG_SCALE = 2; // a chart sharp on a slide

export class FigureFiles {
  /** Files of the figure `root`; `queue(change, source, event)` sends a change, as input does. */
  constructor(root, instance, queue) {
    this.root = root;
    this.queue = queue;
    this.key = `attention_py:figure-runs:${location.pathname}#${instance || root.dataset.figure}:${root.lang}`;
    root.addEventListener("change", (event) => this.onChange(event));
  }

  /** The runs kept before this visit, as the change that puts them back (or null). */
  restoreChange() {
    const runs = this.load();
    return runs.length ? { "do.restore": runs } : null;
  }

  async onChange(event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== "file" || !input.dataset.import) return;
    if (!this.root.contains(input)) return;
    const file = input.files?.[0];
    if (!file) return;
    const text = file.size > MAX_FILE_BYTES ? false : await file.text(); // false: "too large"
    input.value = ""; // the same file may be chosen again
    this.queue({ [input.dataset.import]: text }, input, event);
  }

  /** What an applied answer carries besides the drawing. */
  answered(result) {
    if (result.stored && Array.isArray(result.stored.runs)) this.store(result.stored.runs);
    if (result.file && typeof result.file.text === "string") {
      const task = result.file.as === "png" ? downloadPng(result.file) : Promise.resolve(download(result.file));
      task.catch((error) => console.error(`figure ${this.root.dataset.figure}: could not save ${result.file.name}: ${error}`));
    }
  }

  load() {
    try {
      const runs = JSON.parse(localStorage.getItem(this.key) ?? "[]");
      return Array.isArray(runs) ? runs.filter((run) => typeof run === "string") : [];
    } catch {
      return [];
    }
  }

  store(runs) {
    let kept = runs.filter((run) => typeof run === "string");
    while (kept.length && kept.reduce((sum, run) => sum + run.length, 0) > STORE_CHARS) kept = kept.slice(1);
    try {
      if (kept.length) localStorage.setItem(this.key, JSON.stringify(kept));
      else localStorage.removeItem(this.key);
    } catch {
      // blocked or full: this visit's shelf still works, it is just not kept
    }
  }
}

/** Hands `file` ({name, type, text} or {name, blob}) to the reader as a download. */
export function download(file) {
  const blob = file.blob ?? new Blob([file.text], { type: file.type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = file.name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The SVG `file` drawn on a canvas and downloaded as a PNG of the same name. */
async function downloadPng(file) {
  const url = URL.createObjectURL(new Blob([file.text], { type: "image/svg+xml" }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth * PNG_SCALE;
    canvas.height = image.naturalHeight * PNG_SCALE;
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve, reject) => {
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the canvas gave no PNG"))), "image/png");
    });
    download({ name: file.name.replace(/\.svg$/, ".png"), blob });
  } finally {
    URL.revokeObjectURL(url);
  }
}
