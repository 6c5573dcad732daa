// The page's requests to the site's service worker (docs/widgets/offline/offline-request.js): the
// answer comes back; progress keeps the wait alive; a worker that goes silent ends the wait
// with null, so the offline control's buttons always come back. Chromium runs the real
// worker in tests/e2e/test_offline.py.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { askWorker } from "../../docs/widgets/offline/offline-request.js";

/** navigator.serviceWorker and its active worker: the worker answers as `respond` says. */
function fakeWorker(respond = () => {}) {
  const container = new EventTarget();
  const posted = [];
  const send = (data) => container.dispatchEvent(Object.assign(new Event("message"), { data }));
  const worker = {
    postMessage(message) {
      posted.push(message);
      respond(message, send);
    },
  };
  return { container, worker, posted, send };
}

const after = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

describe("askWorker", () => {
  test("resolves with the worker's status answer to this request, not another's", async () => {
    const { container, worker, posted } = fakeWorker((message, send) => {
      send({ type: "apy-offline-status", id: "someone-else", kept: 0 });
      send({ type: "apy-offline-status", id: message.id, kept: 7 });
    });
    const answer = await askWorker(container, worker, { type: "status" });
    assert.equal(answer.kept, 7);
    assert.equal(posted[0].type, "status");
  });

  test("progress is passed on and keeps the wait alive past the silence bound", async () => {
    const seen = [];
    const { container, worker } = fakeWorker(async (message, send) => {
      for (let done = 1; done <= 4; done += 1) {
        await after(30);
        send({ type: "apy-offline-progress", id: message.id, done, total: 4 });
      }
      send({ type: "apy-offline-status", id: message.id, kept: 4 });
    });
    const answer = await askWorker(container, worker, { type: "keep" }, { onProgress: (p) => seen.push(p.done), silentMs: 60 });
    assert.deepEqual(seen, [1, 2, 3, 4]);
    assert.equal(answer.kept, 4, "120 ms in all, never 60 ms silent");
  });

  test("a worker silent for the bound ends the wait with null, and later messages are ignored", async () => {
    const { container, worker, send, posted } = fakeWorker();
    const started = Date.now();
    const answer = await askWorker(container, worker, { type: "keep" }, { silentMs: 50 });
    assert.equal(answer, null);
    assert.ok(Date.now() - started < 1000);
    send({ type: "apy-offline-status", id: posted[0].id }); // too late: nobody listens
  });

  test("no worker, or one that cannot be posted to: null at once", async () => {
    assert.equal(await askWorker(new EventTarget(), null, { type: "status" }), null);
    const broken = { postMessage: () => { throw new Error("gone"); } };
    assert.equal(await askWorker(new EventTarget(), broken, { type: "status" }, { silentMs: 10_000 }), null);
  });
});
