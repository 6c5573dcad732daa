// One figure's changes waiting for Python (docs/widgets/figures/figure-batch.js): merged as they
// arrive, later wins; a sent batch that was not applied goes back under the newer one.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Batch } from "../../docs/widgets/figures/figure-batch.js";

const source = (name) => ({ name });

test("changes merge as they arrive, the later value of a key wins, and every input is counted", () => {
  const a = source("a");
  const b = source("b");
  const batch = new Batch().add({ x: "1", y: "2" }, a, { timeStamp: 10 }).add({ x: "3" }, b, { timeStamp: 20 }).add({ z: "4" }, a, { timeStamp: 30 });
  assert.deepEqual(batch.changes, { x: "3", y: "2", z: "4" });
  assert.deepEqual([...batch.sources], [a, b], "each element once");
  assert.equal(batch.inputs, 3);
  assert.equal(batch.firstInputAt, 10, "the oldest input's time, not the latest");
  assert.deepEqual([batch.restore, batch.address, batch.retry, batch.sentAt], [false, false, false, null]);
});

test("an input without an element or an event is merged; its time is the clock's", (t) => {
  t.mock.method(performance, "now", () => 1234.5);
  const batch = new Batch().add({ x: "1" }, null, undefined);
  assert.equal(batch.firstInputAt, 1234.5);
  assert.equal(batch.sources.size, 0);
  assert.deepEqual(batch.changes, { x: "1" });
});

test("a time of 0 is kept as the oldest input's (not taken for none)", () => {
  const batch = new Batch().add({ x: "1" }, null, { timeStamp: 0 }).add({ x: "2" }, null, { timeStamp: 50 });
  assert.equal(batch.firstInputAt, 0);
});

test("takeBack: the sent batch goes under the newer changes, with its sources, inputs and oldest time", () => {
  const a = source("a");
  const b = source("b");
  const sent = new Batch().add({ x: "old", y: "kept" }, a, { timeStamp: 5 });
  const newer = new Batch().add({ x: "new" }, b, { timeStamp: 40 });
  const merged = newer.takeBack(sent, false);
  assert.equal(merged, newer);
  assert.deepEqual(merged.changes, { x: "new", y: "kept" }, "newer changes win");
  assert.deepEqual(new Set(merged.sources), new Set([a, b]));
  assert.equal(merged.inputs, 2);
  assert.equal(merged.firstInputAt, 5);
});

test("takeBack into an empty batch takes the sent batch's time and changes", () => {
  const sent = new Batch().add({ x: "1" }, null, { timeStamp: 7 });
  const merged = new Batch().takeBack(sent, false);
  assert.deepEqual(merged.changes, { x: "1" });
  assert.equal(merged.firstInputAt, 7);
  assert.equal(merged.inputs, 1);
});

test("takeBack carries what the sent batch meant: a saved state, the page address", () => {
  const sent = Object.assign(new Batch().add({ x: "1" }, null, { timeStamp: 1 }), { restore: true, address: true });
  const merged = new Batch().add({ y: "2" }, null, { timeStamp: 2 }).takeBack(sent, false);
  assert.equal(merged.restore, true);
  assert.equal(merged.address, true);
  // and a flag already on the newer batch is not cleared by a sent one without it
  const plain = new Batch().add({ x: "1" }, null, { timeStamp: 1 });
  const flagged = Object.assign(new Batch(), { restore: true, address: true }).takeBack(plain, false);
  assert.deepEqual([flagged.restore, flagged.address], [true, true]);
});

test("retry marks the batch's own fault only: a second chance is per failure that may be its own", () => {
  const sent = Object.assign(new Batch().add({ x: "1" }, null, { timeStamp: 1 }), { retry: true });
  assert.equal(new Batch().takeBack(sent, false).retry, false, "a sent batch's retry is not inherited");
  assert.equal(new Batch().takeBack(new Batch().add({ x: "1" }, null, { timeStamp: 1 }), true).retry, true);
  assert.equal(Object.assign(new Batch(), { retry: true }).takeBack(new Batch(), false).retry, true, "kept once set");
});
