// FigureHost (docs/widgets/figures/figure-host.js) and the page's address: a link such as
// `#train?positions=none` opens a shareable figure with those settings, anything the figure
// does not share is refused before Python, a value Python refuses leaves the drawing as it is
// and says so, and the link under the figure (and, after the reader changes the figure, the
// address bar) holds the address of what it shows. A fake session answers the calls; tests/e2e/test_figures_learning.py opens
// such links in Chromium with Python.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";
import { setImmediate } from "node:timers/promises";

import { FakeElement, FakeSession, installPageGlobals } from "./fake-page.mjs";

const page = installPageGlobals(); // before the import: saved-state.js reads them
const { FigureHost } = await import("../../docs/widgets/figures/figure-host.js");

const SHARE = { seed: 0, learning_rate: 0.01, positions: "learned", causal: false };
const DRAWN_STATE = JSON.stringify({ running: false, step: 0, ...SHARE });
const SAVED_KEY = "attention_py:figure:/gallery/#train";
const UI = {
  figure_failed_update: "The figure could not be redrawn.",
  figure_address_refused: ({ setting }) => `The address asks for ${setting}.`,
  figure_share: "Link to these settings",
  figure_share_title: "Copy it to share",
  figure_starting: "Starting Python.",
  figure_restoring: "Restoring.",
};

/**
 * A shareable figure "train" (data-share, data-address) with its error slot; the stand-in
 * morph takes the answer's markup to be the new data-address, as Python writes it.
 */
function figure({ share = SHARE } = {}) {
  const root = new FakeElement("div");
  Object.assign(root, { id: "train", lang: "en", dir: "ltr" });
  Object.assign(root.dataset, { figure: "train_live", strings: "{}", state: DRAWN_STATE, share: JSON.stringify(share), address: "#train" });
  const errorSlot = new FakeElement("p");
  errorSlot.dataset.role = "error";
  errorSlot.hidden = true;
  root.append(errorSlot);
  const session = new FakeSession();
  const morphed = [];
  const morph = (target, html) => {
    morphed.push(html);
    target.dataset.address = html;
  };
  const host = new FigureHost(root, { session, uiStrings: UI, morph });
  return { host, session, root, errorSlot, morphed, link: host.addressLink };
}

const settled = () => setImmediate();

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
  mock.method(console, "error", () => {});
  page.location.hash = "";
  page.history.replaced.length = 0;
  page.sessionStorage.items.clear();
});
afterEach(() => {
  mock.timers.reset();
  mock.restoreAll();
});

describe("an address that names the figure", () => {
  test("sends its values as text, the other shared keys at their defaults, and shows the figure", () => {
    page.location.hash = "#train?positions=none&learning_rate=0.1";
    const { session, root } = figure();
    assert.equal(session.calls.length, 1);
    assert.deepEqual(session.last.changes, { seed: 0, learning_rate: "0.1", positions: "none", causal: false });
    assert.equal(root.scrolledIntoView, 1);
  });

  test("wins over the state saved before a reload, which is not sent", () => {
    page.sessionStorage.setItem(SAVED_KEY, JSON.stringify({ base: DRAWN_STATE, value: '{"seed": 3}' }));
    page.location.hash = "#train?causal=true";
    const { session } = figure();
    assert.equal(session.calls.length, 1);
    assert.deepEqual(session.last.changes, { ...SHARE, causal: "true" });
  });

  test("is written back as the figure's own link, in the form Python draws it", async () => {
    page.location.hash = "#train?causal=true&seed=0";
    const { session } = figure();
    session.last.resolve({ ok: true, html: "#train?causal=true", state: {} });
    await settled();
    assert.deepEqual(page.history.replaced, ["#train?causal=true"]);
  });

  test("followed from a link in the article, while the page is open", () => {
    const { session, root } = figure();
    assert.equal(session.calls.length, 0);
    page.followLink("#train?seed=2");
    assert.equal(session.calls.length, 1);
    assert.deepEqual(session.last.changes, { ...SHARE, seed: "2" });
    assert.equal(root.scrolledIntoView, 1);
  });
});

describe("an address the figure refuses keeps the drawing and says so", () => {
  const refusedHere = {
    "a key the figure does not share": ["#train?running=true", "running=true"],
    "a key of the object prototype": ["#train?__proto__=x", "__proto__=x"],
    "a key given twice": ["#train?seed=1&seed=2", "seed=2"],
    "an overlong value": [`#train?positions=${"n".repeat(41)}`, `positions=${"n".repeat(22)}…`],
    "markup in a key": ["#train?%3Cimg%20src=x%3E=1", "<img src=x>=1"],
    "bidi controls and invisible characters": ["#train?%E2%80%AEseed%E2%80%8B=%E2%81%A67%00", "seed=7"],
    "a Persian word keeps its joiner": ["#train?%D9%85%DB%8C%E2%80%8C%D8%B1%D9%88%D8%AF=1", "می\u200cرود=1"],
  };
  for (const [what, [hash, named]] of Object.entries(refusedHere)) {
    test(`${what}: refused before Python`, () => {
      page.location.hash = hash;
      const { session, errorSlot } = figure();
      assert.equal(session.calls.length, 0);
      assert.equal(errorSlot.hidden, false);
      // shown as text, never as markup; a short excerpt, isolated from the sentence's direction
      assert.equal(errorSlot.textContent, `The address asks for \u2068${named}\u2069.`);
    });
  }

  test("an overlong address: refused before Python", () => {
    page.location.hash = `#train?${"seed=1&".repeat(200)}`;
    const { session, errorSlot } = figure();
    assert.equal(session.calls.length, 0);
    assert.match(errorSlot.textContent, /^The address asks for \u2068seed=1&seed=1&[^\u2069]{0,20}…\u2069\.$/);
  });

  test("a value Python refuses: named as the address wrote it, not sent again, not drawn", async () => {
    page.location.hash = "#train?seed=7";
    const { session, errorSlot, morphed } = figure();
    session.last.resolve({ ok: false, error: "bad", key: "seed" });
    await settled();
    assert.equal(session.calls.length, 1);
    assert.deepEqual(morphed, []);
    assert.equal(errorSlot.textContent, "The address asks for \u2068seed=7\u2069.");
    assert.deepEqual(page.history.replaced, [], "the address is left for the reader to read");
  });
});

describe("addresses that are not this figure's settings", () => {
  for (const hash of ["#train", "#figure-3?seed=1", "#training?seed=1", "#intro"]) {
    test(`${hash}: nothing sent`, () => {
      page.location.hash = hash;
      const { session, errorSlot, root } = figure();
      assert.equal(session.calls.length, 0);
      assert.equal(errorSlot.hidden, true);
      assert.equal(root.scrolledIntoView, undefined);
    });
  }

  test("a figure that shares nothing ignores the address", () => {
    page.location.hash = "#train?seed=1";
    const root = new FakeElement("div");
    Object.assign(root, { id: "train", lang: "en", dir: "ltr" });
    Object.assign(root.dataset, { figure: "softmax", strings: "{}", state: "{}" });
    const session = new FakeSession();
    new FigureHost(root, { session, uiStrings: UI, morph: () => {} });
    assert.equal(session.calls.length, 0);
  });
});

describe("the link under the figure", () => {
  test("is made beside the figure, labelled in the page's language, to the figure's address", () => {
    const { root, link } = figure();
    assert.equal(root.next.children[0], link);
    assert.equal(link.textContent, UI.figure_share);
    assert.equal(link.getAttribute("href"), "#train");
  });

  test("follows every drawing, a running figure's too, without touching the address bar", async () => {
    page.location.hash = "#intro";
    const { host, session, link } = figure();
    host.queue({}, null, null);
    session.last.resolve({ ok: true, html: "#train?seed=1", state: {} });
    await settled();
    assert.equal(link.getAttribute("href"), "#train?seed=1");
    assert.deepEqual(page.history.replaced, []);
  });

  for (const drawn of ["javascript:alert(1)", "https://example.com/#train", "#intro", "#train?a=<b>", "#training?seed=1"]) {
    test(`never to an address that is not the figure's own: ${drawn}`, async () => {
      const { host, session, link } = figure();
      host.queue({ seed: 1 }, new FakeElement("button"), null);
      session.last.resolve({ ok: true, html: drawn, state: {} });
      await settled();
      assert.equal(link.getAttribute("href"), "#train");
      assert.deepEqual(page.history.replaced, []);
    });
  }
});

describe("the address bar follows the reader's changes", () => {
  const input = async ({ session, host }, drawn) => {
    host.queue({ seed: 1 }, new FakeElement("button"), null);
    session.last.resolve({ ok: true, html: drawn, state: {} });
    await settled();
  };

  test("to the link of the settings shown", async () => {
    page.location.hash = "#intro";
    await input(figure(), "#train?seed=1");
    assert.deepEqual(page.history.replaced, ["#train?seed=1"]);
  });

  test("back at the defaults: the figure's own address, if the address was its", async () => {
    page.location.hash = "#train?seed=1";
    const fig = figure();
    fig.session.last.resolve({ ok: true, html: "#train?seed=1", state: {} });
    await settled();
    await input(fig, "#train");
    assert.deepEqual(page.history.replaced, ["#train"]);
  });

  test("back at the defaults: another address the reader came by stays", async () => {
    page.location.hash = "#intro";
    await input(figure(), "#train");
    assert.deepEqual(page.history.replaced, []);
    assert.equal(page.location.hash, "#intro");
  });

  test("not on a call no reader made (a running figure's next chunk)", async () => {
    page.location.hash = "#intro";
    const { host, session } = figure();
    host.queue({}, null, null);
    session.last.resolve({ ok: true, html: "#train?seed=1", state: {} });
    await settled();
    assert.deepEqual(page.history.replaced, []);
  });
});
