// The page's strings and numbers (docs/widgets/shared/strings.js): the texts the build embedded, with
// {placeholders} filled, and numbers written as the page's language writes them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { pageStrings, writeNumber } from "../../docs/widgets/shared/strings.js";

const PERSIAN = "۰۱۲۳۴۵۶۷۸۹";

/** A document with `lang` and the build's embedded JSON (text as given; absent when undefined). */
function fakeDoc({ lang = "", strings, numbers, body = false } = {}) {
  const scripts = { "apy-page-strings": strings, "apy-page-numbers": numbers };
  return {
    documentElement: { lang },
    body: body ? { dir: "rtl" } : null,
    getElementById: (id) => (scripts[id] === undefined ? null : { textContent: scripts[id] }),
  };
}

describe("writeNumber", () => {
  test("digits decimals, Latin digits and '.' when the format says nothing", () => {
    assert.equal(writeNumber(0.05, 2), "0.05");
    assert.equal(writeNumber(3), "3");
    assert.equal(writeNumber(2.75, 1), "2.8");
    assert.equal(writeNumber("1.5", 1), "1.5", "a numeric string is a number");
  });

  test("a negative number has U+2212 as its minus; no negative zero; no thousands separator", () => {
    assert.equal(writeNumber(-1.25, 2), "\u22121.25");
    assert.equal(writeNumber(-0.001, 2), "0.00");
    assert.equal(writeNumber(-0, 0), "0");
    assert.equal(writeNumber(1234567.5, 1), "1234567.5");
  });

  test("the language's decimal sign and digits", () => {
    assert.equal(writeNumber(0.05, 2, { decimal: "," }), "0,05");
    assert.equal(writeNumber(-12.5, 1, { digits: PERSIAN, decimal: "٫" }), "\u2212۱۲٫۵");
  });

  test("a format that is not ten digits, or not text, is ignored: Latin digits, '.'", () => {
    assert.equal(writeNumber(1.5, 1, { digits: "0123" }), "1.5");
    assert.equal(writeNumber(1.5, 1, { digits: 42, decimal: 7 }), "1.5");
    assert.equal(writeNumber(1.5, 1, { decimal: "" }), "1.5");
  });
});

describe("pageStrings", () => {
  test("texts as embedded; a text with {placeholders} is a function that fills the ones given", () => {
    const doc = fakeDoc({ lang: "de-CH", strings: JSON.stringify({ run: "Ausführen", done: "Fertig in {seconds} s ({where})" }) });
    const s = pageStrings(doc);
    assert.equal(s.run, "Ausführen");
    assert.equal(s.done({ seconds: "0,12" }), "Fertig in 0,12 s ({where})", "an unknown placeholder stays as written");
    assert.equal(s.done({ seconds: 0, where: "hier" }), "Fertig in 0 s (hier)");
    assert.equal(s.done(), "Fertig in {seconds} s ({where})");
    assert.equal(s.lang, "de", "the language without its region, lower case");
    assert.equal(s.dir, "ltr", "no body: left to right");
  });

  test("numbers follow the embedded number format", () => {
    const s = pageStrings(fakeDoc({ lang: "fa", numbers: JSON.stringify({ digits: PERSIAN, decimal: "٫" }) }));
    assert.equal(s.number(0.05, 2), "۰٫۰۵");
    assert.equal(s.number(7), "۷", "0 decimals unless asked");
  });

  test("one reading per document", () => {
    const doc = fakeDoc({ strings: JSON.stringify({ run: "Run" }) });
    assert.equal(pageStrings(doc), pageStrings(doc));
    assert.notEqual(pageStrings(doc), pageStrings(fakeDoc({ strings: JSON.stringify({ run: "Run" }) })));
  });

  test("nothing embedded, or JSON that does not parse: no texts, English, Latin numbers", () => {
    for (const doc of [fakeDoc(), fakeDoc({ strings: "{not json", numbers: "null" })]) {
      const s = pageStrings(doc);
      assert.equal(s.run, undefined);
      assert.equal(s.lang, "en");
      assert.equal(s.number(-2.5, 1), "\u22122.5");
    }
  });

  test("the direction is the body's computed direction (Material sets dir on <body>)", (t) => {
    const doc = fakeDoc({ body: true });
    globalThis.getComputedStyle = (element) => ({ direction: element.dir });
    t.after(() => delete globalThis.getComputedStyle);
    assert.equal(pageStrings(doc).dir, "rtl");
  });
});
