// One request's output on its way to the page (docs/widgets/runtime/worker/worker-output.js): only stdout and
// stderr, capped (output-cap.js), batched at each write since no timer can run while Python
// does, and the request's result after whatever is still pending.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { MAX_CHARS, MAX_LINES } from "../../docs/widgets/runtime/output-cap.js";
import { RequestOutput } from "../../docs/widgets/runtime/worker/worker-output.js";

let clock;
beforeEach((t) => {
  clock = 1000;
  t.mock.method(performance, "now", () => clock);
});

function request(id = 7) {
  const posts = [];
  return { out: new RequestOutput(id, (message) => posts.push(message)), posts };
}

test("writes to stdout and stderr go to the page, in order, under the request's id", () => {
  const { out, posts } = request();
  assert.equal(out.write("stdout", "a\n"), false);
  assert.equal(out.write("stderr", "oops\n"), false);
  assert.equal(out.write("stdout", "b"), false);
  assert.deepEqual(posts, [
    { id: 7, type: "stdout", text: "a\n" },
    { id: 7, type: "stderr", text: "oops\n" },
    { id: 7, type: "stdout", text: "b" },
  ]);
});

test("only stdout and stderr: another stream name, empty or non-text output posts nothing", () => {
  const { out, posts } = request();
  for (const [stream, text] of [["result", "forged"], ["truncated", "x"], ["stdout", ""], ["stdout", 42], ["stderr", null]]) {
    assert.equal(out.write(stream, text), false);
  }
  out.end({ status: "ok" });
  assert.deepEqual(posts, [{ id: 7, type: "result", status: "ok", truncated: false }]);
});

test("a burst past 50 posts in 50 ms waits, merged by stream, for the next write after the window", () => {
  const { out, posts } = request();
  for (let i = 0; i < 60; i++) out.write(i % 2 ? "stderr" : "stdout", `${i}\n`);
  assert.equal(posts.length, 50, "the first 50 go at once");
  clock += 49;
  out.write("stderr", "still in the window\n");
  assert.equal(posts.length, 50);
  clock += 1; // 50 ms after the window opened
  out.write("stderr", "next window\n");
  const later = posts.slice(50);
  // the 10 held writes alternate streams; consecutive writes to one stream go as one message
  assert.equal(later.map((p) => p.text).join(""), [50, 51, 52, 53, 54, 55, 56, 57, 58, 59].map((i) => `${i}\n`).join("") + "still in the window\nnext window\n");
  assert.equal(later.at(-1).type, "stderr");
  assert.match(later.at(-1).text, /59\nstill in the window\nnext window\n$/);
});

test("what is held at the request's end goes out before the result", () => {
  const { out, posts } = request();
  for (let i = 0; i < 50; i++) out.write("stdout", "x");
  out.write("stdout", "held ");
  out.write("stdout", "too");
  out.end({ status: "ok", value: "None", error: null });
  assert.deepEqual(posts.slice(50), [
    { id: 7, type: "stdout", text: "held too" },
    { id: 7, type: "result", status: "ok", value: "None", error: null, truncated: false },
  ]);
});

test("past the cap: the part that fits, 'truncated' said at once, and the request takes no more", () => {
  const { out, posts } = request();
  assert.equal(out.write("stdout", "line\n".repeat(MAX_LINES - 1)), false);
  assert.equal(out.write("stdout", "last\nover\n"), true);
  assert.equal(out.closed, true);
  assert.deepEqual(posts.slice(-2), [
    { id: 7, type: "stdout", text: "last\n" },
    { id: 7, type: "truncated" },
  ]);
  const before = posts.length;
  assert.equal(out.write("stderr", "more"), true, "closed: the runtime stops sending");
  assert.equal(posts.length, before);
  out.end({ status: "ok" });
  assert.deepEqual(posts.at(-1), { id: 7, type: "result", status: "ok", truncated: true });
});

test("the cap is said at once even while the burst window holds other output back", () => {
  const { out, posts } = request();
  for (let i = 0; i < 50; i++) out.write("stdout", "x");
  out.write("stdout", `${"y".repeat(999)}\n`.repeat(MAX_CHARS / 1000)); // 50 chars already shown: this goes past the cap
  assert.equal(posts.at(-1).type, "truncated");
  assert.equal(posts.at(-2).text.length, MAX_CHARS - 50);
});

test("mute drops what is not posted yet and everything after (Python died)", () => {
  const { out, posts } = request();
  for (let i = 0; i < 50; i++) out.write("stdout", "x");
  out.write("stdout", "held");
  out.mute();
  assert.equal(out.closed, true);
  assert.equal(out.write("stdout", "dying words"), true);
  out.flush();
  assert.equal(posts.length, 50);
  assert.ok(posts.every((p) => p.text === "x"));
});

test("fitValue: a value within MAX_CHARS is untouched; a longer one is cut and marks the result truncated", () => {
  const { out, posts } = request();
  assert.equal(out.fitValue("'short'"), "'short'");
  assert.equal(out.fitValue(null), null);
  assert.equal(out.fitValue("v".repeat(MAX_CHARS)), "v".repeat(MAX_CHARS));
  assert.equal(out.truncated, false);
  assert.equal(out.fitValue("v".repeat(MAX_CHARS + 1)).length, MAX_CHARS);
  out.end({ status: "ok" });
  assert.equal(posts.at(-1).truncated, true);
});

test("a reply cannot claim it was not truncated", () => {
  const { out, posts } = request();
  out.fitValue("v".repeat(MAX_CHARS + 1));
  out.end({ status: "ok", truncated: false });
  assert.equal(posts.at(-1).truncated, true);
});
