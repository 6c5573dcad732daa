// The messages between the page's session and the Python worker (docs/widgets/runtime/messages.js):
// the kinds it declares are exactly those README.md's protocol tables describe, each direction
// apart, and no two kinds share a name.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as kinds from "../../docs/widgets/runtime/messages.js";

const PAGE_TO_WORKER = ["START", "RUN", "CALL"];
const readme = readFileSync(new URL("../../docs/widgets/README.md", import.meta.url), "utf8");

/** The kinds named in the rows of the table that follows `heading` in "The worker protocol". */
function tableKinds(heading) {
  const section = readme.split("## The worker protocol")[1].split("\n## ")[0];
  const table = section.split(heading)[1].trim().split("\n\n")[0];
  const named = new Set();
  for (const row of table.split("\n").filter((line) => line.startsWith("| `{"))) {
    const message = row.split("` |")[0];
    for (const [, kind] of message.matchAll(/"([a-z-]+)"/g)) named.add(kind);
  }
  return named;
}

test("the page's requests are the README's, and only they", () => {
  assert.deepEqual(new Set(PAGE_TO_WORKER.map((name) => kinds[name])), tableKinds("Page to worker:"));
});

test("the worker's messages are the README's, and only they", () => {
  const workerKinds = Object.keys(kinds).filter((name) => !PAGE_TO_WORKER.includes(name));
  assert.deepEqual(new Set(workerKinds.map((name) => kinds[name])), tableKinds("Worker to page:"));
});

test("every kind is its own name, in lower case, and no two are the same", () => {
  const values = Object.entries(kinds).map(([name, value]) => {
    assert.equal(value, name.toLowerCase(), name);
    return value;
  });
  assert.equal(new Set(values).size, values.length);
});
