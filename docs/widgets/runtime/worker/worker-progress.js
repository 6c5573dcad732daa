// The progress bar's numbers while Python loads: `{type: "progress", phase, loaded, total}`,
// the bytes of the runtime's files counted as they arrive against the bytes expected.

import { PROGRESS } from "../messages.js";

export class DownloadProgress {
  /** `post` is the worker's channel to the page; `total` the bytes expected so far. */
  constructor(post, total) {
    this.post = post;
    this.total = total;
    this.loaded = 0;
    this.lastReport = 0;
  }

  /** Says how far the download is. */
  report() {
    this.post({ type: PROGRESS, phase: "download", loaded: this.loaded, total: this.total });
  }

  /** The download is over: Python is being set up. */
  installing() {
    this.post({ type: PROGRESS, phase: "install", loaded: 0, total: 0 });
  }

  /**
   * Counts the bytes of every response the global fetch returns (Pyodide fetches its big
   * files with it, and the memory image is fetched with it too) until the undo it returns is
   * called. The count reads a clone: Pyodide still gets the original response, so the
   * browser can stream-compile the wasm and cache the compiled code (a rebuilt Response would
   * lose its URL and with it that cache). Reports at most every 100 ms, and at each file's end.
   */
  countFetches() {
    const original = self.fetch;
    const count = async (body) => {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.loaded += value.byteLength;
        const now = performance.now();
        if (now - this.lastReport > 100) {
          this.lastReport = now;
          this.report();
        }
      }
      this.report();
    };
    self.fetch = async (...args) => {
      const response = await original(...args);
      if (response.ok && response.body) count(response.clone().body).catch(() => {});
      return response;
    };
    return () => {
      self.fetch = original;
    };
  }
}
