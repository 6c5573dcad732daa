// The progress bar's numbers while Python loads (docs/widgets/runtime/worker/worker-progress.js): the bytes
// of every response the worker's fetch returns, counted from a clone while the caller still
// reads the original, reported at most every 100 ms and at each file's end.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { DownloadProgress } from "../../docs/widgets/runtime/worker/worker-progress.js";

/** A response whose body comes in `chunks` (each a byte count), as a server streams it. */
function streamed(chunks, { status = 200 } = {}) {
  const body = new ReadableStream({
    start(controller) {
      for (const size of chunks) controller.enqueue(new Uint8Array(size));
      controller.close();
    },
  });
  return new Response(body, { status });
}

/** Records what the worker posts; `until(test)` waits (a few turns at most) for a post that passes `test`. */
function channel() {
  const posts = [];
  const post = (message) => posts.push(message);
  const until = (check) => eventually(() => posts.some(check));
  return { posts, post, until };
}

/** One turn of the event loop. */
const tick = () =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

/** Lets the stream's reads run until `check()` holds (a few turns of the event loop at most). */
async function eventually(check) {
  for (let turn = 0; turn < 50 && !check(); turn++) await tick();
  assert.ok(check(), "not there after 50 turns of the event loop");
}

let clock;
beforeEach((t) => {
  clock = 1000;
  t.mock.method(performance, "now", () => clock);
  globalThis.self = { fetch: null };
});
afterEach(() => {
  delete globalThis.self;
});

test("report and installing post the progress messages the page reads", () => {
  const { posts, post } = channel();
  const progress = new DownloadProgress(post, 500);
  progress.report();
  progress.loaded = 120;
  progress.total = 400; // the boot corrects the bytes expected as it learns them
  progress.report();
  progress.installing();
  assert.deepEqual(posts, [
    { type: "progress", phase: "download", loaded: 0, total: 500 },
    { type: "progress", phase: "download", loaded: 120, total: 400 },
    { type: "progress", phase: "install", loaded: 0, total: 0 },
  ]);
});

test("every byte of every file is counted, and each file's end is reported", async () => {
  const { posts, post, until } = channel();
  const progress = new DownloadProgress(post, 1000);
  const files = { "a.wasm": [100, 200], "b.zip": [50] };
  globalThis.self.fetch = async (url) => streamed(files[url]);
  const stop = progress.countFetches();
  await globalThis.self.fetch("a.wasm");
  await until((m) => m.loaded === 300);
  await globalThis.self.fetch("b.zip");
  await until((m) => m.loaded === 350);
  stop();
  assert.equal(progress.loaded, 350);
  assert.deepEqual(posts.at(-1), { type: "progress", phase: "download", loaded: 350, total: 1000 });
});

test("the caller still gets the original response, whole and readable", async () => {
  const { post } = channel();
  const original = streamed([3, 4]);
  globalThis.self.fetch = async () => original;
  new DownloadProgress(post, 10).countFetches();
  const response = await globalThis.self.fetch("x");
  assert.equal(response, original, "not a rebuilt Response (it would lose its URL and the wasm cache)");
  assert.equal((await response.arrayBuffer()).byteLength, 7);
});

test("reports at most every 100 ms while a file streams, and once at its end", async () => {
  const { posts, post, until } = channel();
  const progress = new DownloadProgress(post, 100);
  progress.lastReport = clock; // as if a report was just made
  let source;
  const body = new ReadableStream({ start: (controller) => void (source = controller) });
  globalThis.self.fetch = async () => new Response(body);
  progress.countFetches();
  await globalThis.self.fetch("big");
  for (let chunk = 1; chunk <= 10; chunk++) {
    clock += 30; // each chunk arrives 30 ms after the one before
    source.enqueue(new Uint8Array(10));
    await eventually(() => progress.loaded === 10 * chunk);
  }
  source.close();
  await until((m) => m.loaded === 100 && posts.length >= 3);
  // 10 chunks over 300 ms: 2 reports while streaming (each more than 100 ms after the last), 1 at the end.
  assert.deepEqual(posts.map((p) => p.loaded), [40, 80, 100]);
});

test("a failed response, or one without a body, adds nothing", async () => {
  const { posts, post } = channel();
  const progress = new DownloadProgress(post, 100);
  const responses = [streamed([40], { status: 404 }), new Response(null, { status: 204 })];
  globalThis.self.fetch = async () => responses.shift();
  progress.countFetches();
  assert.equal((await globalThis.self.fetch("missing")).status, 404);
  assert.equal((await globalThis.self.fetch("empty")).status, 204);
  await tick();
  assert.equal(progress.loaded, 0);
  assert.deepEqual(posts, []);
});

test("the undo puts the fetch back: nothing fetched after it is counted", async () => {
  const { posts, post } = channel();
  const fetchBefore = async () => streamed([10]);
  globalThis.self.fetch = fetchBefore;
  const progress = new DownloadProgress(post, 100);
  const stop = progress.countFetches();
  assert.notEqual(globalThis.self.fetch, fetchBefore);
  stop();
  assert.equal(globalThis.self.fetch, fetchBefore);
  await (await globalThis.self.fetch("later")).arrayBuffer();
  await tick();
  assert.equal(progress.loaded, 0);
  assert.deepEqual(posts, []);
});

test("a rejected fetch rejects for the caller, as it would without the count", async () => {
  const { post } = channel();
  globalThis.self.fetch = async () => {
    throw new TypeError("Failed to fetch");
  };
  new DownloadProgress(post, 100).countFetches();
  await assert.rejects(globalThis.self.fetch("x"), /Failed to fetch/);
});
