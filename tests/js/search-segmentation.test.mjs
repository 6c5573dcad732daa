// How search cuts the words of a language written without spaces (site_hooks/i18n/search_text.js,
// run in Material's search worker; the build runs the same `separated` under Node): the pieces
// of a query are the words of the pages that write it, whatever the sentence around them, and
// text in other scripts is cut only where it was before. Material's worker itself, with these
// pieces, runs in tests/site_hooks/test_search_segmentation.py.
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, test } from "node:test";
import vm from "node:vm";

const SOURCE = fs.readFileSync(new URL("../../site_hooks/i18n/search_text.js", import.meta.url), "utf8");

// The normalisation rules are search_text.py's (tests/site_hooks/test_search_text.py checks them against
// Python's); cutting words needs only a stand-in: trim ASCII and CJK punctuation from the ends.
const RULES = {
  delete: [],
  trim: [[0x21, 0x2f], [0x3a, 0x40], [0x3000, 0x303f], [0xff01, 0xff0f]],
  inWord: "(?!)",
  letters: {},
  joiner: "\u200c",
  prefixes: [],
  minRemainder: 3,
};

/* The plugin's functions for `segmenter` (a locale, or null), outside lunr, as the build runs
   them; `withoutSegmenter`: on a platform with no Intl.Segmenter. */
function plugin(segmenter, { withoutSegmenter = false } = {}) {
  const name = segmenter ? `normalised-segmented-${segmenter}` : "normalised";
  const code = SOURCE.replace("/*RULES*/null", JSON.stringify(RULES))
    .replace("/*PLUGIN*/null", JSON.stringify({ name, stemmer: null, segmenter }));
  const context = vm.createContext({});
  if (withoutSegmenter) vm.runInContext("delete Intl.Segmenter", context);
  vm.runInContext(code, context);
  return context.attentionSearchText;
}

const ZWSP = "\u200b";
const zh = plugin("zh");
const words = html => html.replace(/<[^>]*>/g, " ").split(/[\s\-\u200b]+/).map(zh.normalise).filter(Boolean);

// Copy out of the vm's realm, so deepEqual compares plain arrays.
const queryWords = (text, query) => [...text.queryWords(query)];

describe("a Chinese query is cut into the words the pages were cut into", () => {
  const sentences = {
    注意力: "模型用注意力机制决定看哪里。",
    链式法则: "反向传播用链式法则逐层求梯度。",
    掷硬币: "每次掷硬币的结果是随机的。",
  };
  test("a query typed without spaces: its words", () => {
    assert.deepEqual(queryWords(zh, "注意力"), ["注意力"]);
    assert.deepEqual(queryWords(zh, "链式法则"), ["链式", "法则"]);
    assert.deepEqual(queryWords(zh, "掷硬币"), ["掷", "硬币"]);
  });
  for (const [query, sentence] of Object.entries(sentences))
    test(`${query}: every piece is a word of「${sentence}」as the build separates it`, () => {
      const indexed = words(zh.separated(`<p>${sentence}</p>`));
      for (const piece of zh.queryWords(query)) assert.ok(indexed.includes(zh.normalise(piece)), [piece, indexed]);
    });
  test("punctuation is no word to search; a query of nothing else is left as typed", () => {
    assert.deepEqual(queryWords(zh, "注意力。"), ["注意力"]);
    assert.deepEqual(queryWords(zh, "。"), ["。"]);
  });
});

describe("the build's separation", () => {
  test("U+200B between words, beside Han characters only, never inside tags", () => {
    assert.equal(zh.separated("<p>掷硬币的结果</p>"), `<p>掷${ZWSP}硬币${ZWSP}的${ZWSP}结果</p>`);
    assert.equal(zh.separated("<p>用softmax函数</p>"), `<p>用${ZWSP}softmax${ZWSP}函数</p>`);
    const code = "调用<code>softmax(x)</code>即可";
    assert.ok(zh.separated(code).includes("<code>softmax(x)</code>"));
    assert.equal(zh.separated(code).replaceAll(ZWSP, ""), code);
  });
  test("text of other scripts is left as it was: the separators cut it", () => {
    for (const text of ["<p>softmax(x) = e^x / Σ e^x, step-by-step.</p>", "מנגנון הקשב ב־softmax", "می‌شود", "Весной всё растёт."])
      assert.equal(zh.separated(text), text);
  });
  test("the pieces of a text are the text", () => {
    const text = "本站用纯 Python 讲解注意力：softmax(x)、链式法则。";
    assert.equal(zh.pieces(text).join(""), text);
  });
});

describe("languages that are not segmented", () => {
  test("a plugin with no segmenter leaves queries and pages whole", () => {
    const plain = plugin(null);
    assert.equal(plain.segments, false);
    assert.deepEqual(queryWords(plain, "链式法则"), ["链式法则"]);
    assert.equal(plain.separated("<p>掷硬币的结果</p>"), "<p>掷硬币的结果</p>");
  });
  test("without Intl.Segmenter the page leaves the query to Material", () => {
    const old = plugin("zh", { withoutSegmenter: true });
    assert.equal(old.segments, false);
    assert.deepEqual(queryWords(old, "链式法则"), ["链式法则"]);
  });
  test("Japanese is cut by its own locale", () => {
    assert.deepEqual(queryWords(plugin("ja"), "モデルが見る"), ["モデル", "が", "見る"]);
  });
});
