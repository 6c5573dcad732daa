// One live cell: turns the prerendered code block into an editor with Run / Stop / Reset,
// runs the code in the page's Python session and shows what happened.
//
// The build (site_hooks/content/live_cells.py) renders:
//   <div class="live-cell" data-live-cell="N" data-timeout="10" data-hash="...">
//     <div class="live-cell__code highlight" dir="ltr"><pre><code>…</code></pre></div>
//     <div class="live-cell__bar"></div>
//   </div>
// The bar is empty but already takes its height, so nothing moves when it is filled in.
import { createEditor, setEditorText } from "./editor.js";
import { OutputView } from "./output-view.js";
import { SessionStatusView } from "./session-status.js";
import { SavedEntry } from "../shared/saved-state.js";
import { STARTUP_STALL_MS } from "../runtime/python-session.js";
import { TRUNCATED } from "../runtime/messages.js";

export class LiveCell {
  constructor(root, { session, strings }) {
    this.root = root;
    this.session = session;
    this.strings = strings;
    this.index = Number(root.dataset.liveCell) || 1;
    this.timeoutSeconds = Number(root.dataset.timeout) || 10;
    this.hash = root.dataset.hash || "";
    const codeBox = root.querySelector(".live-cell__code");
    this.original = codeBox.querySelector("code").textContent.replace(/\n$/, "");
    this.job = null;
    const id = `live-cell-${this.index}`;
    // The reader's edit, across visits; an edit the browser cannot keep says so under the editor.
    this.saved = new SavedEntry("live-cell", this.index, "local", (kept) => this.notKept && (this.notKept.hidden = kept));

    root.setAttribute("role", "group");
    root.setAttribute("aria-label", strings.cell_label({ n: this.index }));

    const code = this.saved.load(this.hash) ?? this.original;
    codeBox.replaceChildren(); // the prerendered <pre> goes, the editor takes its place
    const hint = codeBox.appendChild(document.createElement("p"));
    hint.id = `${id}-hint`;
    hint.className = "live-cell__hint";
    hint.dir = strings.dir;
    hint.textContent = strings.editor_hint;
    this.editor = createEditor({
      parent: codeBox,
      doc: code,
      label: strings.editor_label({ n: this.index }),
      describedBy: hint.id,
      onRun: () => this.run(),
      onChange: (text) => this.saved.saveSoon(this.hash, text, this.original),
    });
    this.notKept = codeBox.appendChild(document.createElement("p"));
    this.notKept.className = "live-cell__not-kept";
    this.notKept.dir = strings.dir;
    this.notKept.setAttribute("role", "status");
    this.notKept.hidden = true;
    this.notKept.textContent = strings.edit_not_kept;

    const bar = root.querySelector(".live-cell__bar") || root.appendChild(document.createElement("div"));
    bar.className = "live-cell__bar";
    bar.dir = strings.dir; // the buttons mirror on RTL pages, whatever direction the code box has
    this.runButton = this.button(bar, "run", strings.run, strings.run_title, () => this.run());
    this.stopButton = this.button(bar, "stop", strings.stop, "", () => this.job?.stop("stopped"));
    this.resetButton = this.button(bar, "reset", strings.reset, strings.reset_title, () => this.reset());
    this.status = bar.appendChild(document.createElement("span"));
    this.status.className = "live-cell__status";
    this.status.setAttribute("role", "status");
    new SessionStatusView(bar.appendChild(document.createElement("span")), { session, strings });

    const outputBox = root.appendChild(document.createElement("div"));
    outputBox.className = "live-cell__output";
    outputBox.id = `${id}-output`;
    outputBox.dir = "ltr";
    outputBox.setAttribute("role", "log");
    outputBox.setAttribute("aria-label", strings.output_label({ n: this.index }));
    this.output = new OutputView(outputBox, strings);

    this.setBusy(false);
    // A fresh Python took the place of the one this cell's code last ran in (Restart, a
    // crash, a flood, code that closed its worker): what the code defined is gone, and the
    // cell says so, whichever job was running when it happened.
    this.ranIn = 0; // the session generation the cell's code last ran in (0: none since)
    session.addEventListener("restart", () => this.sessionReplaced());
    root.classList.add("live-cell--mounted");
  }

  sessionReplaced() {
    // A running job hears it in its reply (`restarted`), and a queued one will run afresh.
    if (!this.ranIn || this.ranIn === this.session.generation || this.job) return;
    this.ranIn = 0;
    this.output.note(this.strings.definitions_lost, "warning");
  }

  button(bar, name, label, title, onClick) {
    const button = bar.appendChild(document.createElement("button"));
    button.type = "button";
    button.className = `live-cell__button live-cell__${name}`;
    button.textContent = label;
    if (title) button.title = title;
    button.addEventListener("click", () => {
      if (!button.disabled && button.getAttribute("aria-disabled") !== "true") onClick();
    });
    return button;
  }

  async run() {
    if (this.job) return; // one run at a time per cell
    const code = this.editor.state.doc.toString();
    this.output.clear();
    let startedAt = 0;
    const job = (this.job = this.session.run(code, {
      filename: `<cell ${this.index}>`,
      lang: this.strings.lang, // the page's: its cells read its model (attention_py.resources.page_language)
      timeoutMs: this.timeoutSeconds * 1000,
      onOutput: (stream, text) => (stream === TRUNCATED ? this.output.markTruncated() : this.output.write(stream, text)),
      onStart: () => {
        startedAt = performance.now();
        this.ranIn = this.session.generation;
        this.setBusy("running");
      },
    }));
    if (!startedAt) this.setBusy(this.session.state === "ready" ? "queued" : "waiting");
    const reply = await job.reply;
    this.job = null;
    if (reply.restarted) this.ranIn = 0; // the reply says so itself (report)
    this.setBusy(false);
    this.report(reply, (performance.now() - startedAt) / 1000);
  }

  /** Tells what happened: the value or traceback in the output, a sentence in the status. */
  report(reply, seconds) {
    const { strings, output } = this;
    output.render();
    const say = (text) => (this.status.textContent = text);
    // Code an earlier run left running held Python when this cell's turn came (python-session.js).
    if (reply.leftover === "interrupted") output.note(strings.leftover_interrupted, "warning");
    if (reply.leftover === "replaced") output.note(strings.leftover_replaced, "warning");
    switch (reply.status) {
      case "ok":
        if (reply.value != null) output.block("value", reply.value);
        say(strings.done({ seconds: strings.number(seconds, 2) }));
        break;
      case "error":
        output.block("error", reply.error);
        say(strings.error);
        break;
      case "timeout":
        say(strings.timeout({ seconds: strings.number(this.timeoutSeconds) }));
        output.note(strings.timeout({ seconds: strings.number(this.timeoutSeconds) }), "warning");
        break;
      case "stopped":
        say(strings.stopped);
        output.note(strings.stopped, "warning");
        break;
      case "restarted":
        say(strings.restarted_by_user);
        output.note(strings.restarted_by_user, "warning");
        break;
      case "crashed": // Pyodide suffered a fatal error; the session has started afresh
        say(strings.crashed({ message: reply.error || "" }));
        output.note(strings.crashed({ message: reply.error || "" }), "error");
        break;
      case "cancelled":
        say(strings.cancelled);
        break;
      case "failed": {
        const text = reply.reason === "stalled" && strings.startup_stalled
          ? strings.startup_stalled({ seconds: strings.number(STARTUP_STALL_MS / 1000) })
          : strings.failed({ message: reply.error });
        say(text);
        output.note(text, "error");
        break;
      }
      default:
        say(String(reply.status));
    }
    if (reply.restarted) output.note(strings.session_lost, "warning");
    if (reply.truncated || output.truncated) output.markTruncated();
  }

  /** busy: false, "waiting" (for Python), "queued" (behind another cell) or "running". */
  setBusy(busy) {
    const { strings } = this;
    this.root.dataset.busy = busy || "";
    // Run stays focusable while busy (aria-disabled: the reader who pressed it, or Ctrl+Enter
    // in the editor, keeps their place and hears its words, "Starting Python…").
    this.runButton.setAttribute("aria-disabled", String(Boolean(busy)));
    this.setStoppable(Boolean(busy));
    this.runButton.textContent = busy === "waiting" ? strings.run_waiting : strings.run;
    if (busy) this.status.textContent = strings[busy];
  }

  /**
   * Stop is a real button only while something waits or runs; otherwise it is disabled:
   * not pressable, not a Tab stop, and drawn so. A reader who pressed Stop (or was on it when
   * the run ended) goes to Run first, so focus never falls back to the top of the page.
   */
  setStoppable(stoppable) {
    const stop = this.stopButton;
    if (!stoppable && stop.ownerDocument.activeElement === stop) this.runButton.focus({ preventScroll: true });
    stop.disabled = !stoppable;
  }

  reset() {
    setEditorText(this.editor, this.original);
    this.saved.forget(); // also drops the save of the original that the edit above scheduled
  }
}
