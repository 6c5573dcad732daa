"""How search compares words: one definition for the index and for the query, in every script.

Readers type Hebrew without niqqud or with it, Persian with Arabic ي/ك or Persian ی/ک, with or
without the zero-width non-joiner, and Arabic with or without harakat or the article. lunr
compares terms character by character, so every indexed word and every query word goes
through the same two steps, chosen by the characters of the word, never by the page language:

``normalise(word)``
    1. NFKD: presentation forms and ligatures become plain letters; أ إ آ ؤ ئ ۀ split into
       their letter and a hamza/madda mark.
    2. Delete the optional marks of the abjads (every non-spacing mark of the Arabic, Hebrew
       and Syriac blocks: harakat, shadda, sukun, superscript alef, hamza/madda marks,
       Quranic signs, niqqud, cantillation), tatweel, and every invisible format character
       (ZWNJ, ZWJ, LRM/RLM, bidi controls, soft hyphen, BOM). Hebrew geresh/gershayim and ' "
       between two Hebrew letters go too (ד״ר, ד"ר, דר are one word).
    3. NFC, then lower case (what Material's tokenizer does to every indexed token).
    4. Map letter variants to one letter (LETTERS below), then trim punctuation and symbols
       from both ends, as lunr's English trimmer does for ASCII only.

``variants(token)``
    The token's normalised form first, then candidate forms without a clitic: the pieces
    between ZWNJs (می‌شود -> شود), and the word without one of the prefixes. A candidate
    counts only if it has at least MIN_REMAINDER letters and appears in the index as a word
    of its own: an indexed token is also indexed as such a candidate (so מחברת finds
    המחברת), and a query word also searches for it as a whole word (so בוקטור finds וקטור).

``stem(term, stemmer)``
    Where a language has a stemmer (``stemmer_for``: lunr's own for English, one of
    lunr-languages' plugins in Material's bundle generated from Snowball for Russian, German...;
    only for a language written in the script the algorithm reads, so never Hebrew or Arabic
    script, which keep the steps above only), normalised terms are stemmed last: «весов» and
    «веса» are both ``вес``. The index holds each term and its stem, a query word searches its
    stem beside the word as typed (search_text.js). The browser stems with lunr's copies of the
    algorithms; ``stem`` here calls the reference implementation (the ``snowballstemmer``
    package, a test requirement), which the tests compare them with.

Words of a language written without spaces (``segmenter_for``: Chinese, Japanese, the scripts
of languages.UNSPACED_SCRIPTS) are what the platform's word segmenter, ``Intl.Segmenter``, finds
(the browser's and Node's, ICU's dictionary): separators alone would make a whole clause one
word, found only by a query that starts it. ``separate_words`` puts U+200B between them in the
pages' text at build time, under Node, with the browser side's own function; in the page the
same plugin cuts each query word, and each piece of a page again, with the browser's segmenter.

Only letters that readers and keyboards swap for one another are merged; see LETTERS for
each choice. The browser side (``search_text.js``, published as a lunr language plugin by
search.py) reads ``rules()`` as JSON and implements the same steps; tests/site_hooks/test_search_text.py
checks that both give the same answers for every word of every language's pages, and that
both stem alike.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from site_hooks.i18n.languages import UNSPACED_SCRIPTS

JS_SOURCE = Path(__file__).with_name("search_text.js")
SEPARATE_WORDS = Path(__file__).with_name("separate_words.mjs")

ZWNJ = "\u200c"
MIN_REMAINDER = 3
"""A clitic is split off only if at least this many letters remain (ב+וקטור, not ב+ית)."""

ABJADS = ("ARABIC", "HEBREW", "SYRIAC")
"""Scripts whose vowel and other marks are optional in ordinary writing: all their non-spacing
marks are deleted. Latin, Greek, Cyrillic marks are not: é, ö, й tell words apart."""

DELETED_CHARACTERS = "\u0640"  # Arabic tatweel (kashida), a stretched joining line

# Letter variants, after NFKD and mark deletion (so أ إ آ are already ا, ؤ is و, ئ is ي, ۀ is ە):
LETTERS = {
    # Arabic yeh, alef maksura and Persian yeh: Arabic keyboards type ي/ى in Persian text, and
    # Egyptian and much informal Arabic writes final ي as ى (في/فى). على/علي is the one
    # common pair merged; both are short function-like words. Yeh barree ے is not merged:
    # Urdu کی and کے are different words.
    "\u064a": "\u06cc",  # ي -> ی
    "\u0649": "\u06cc",  # ى -> ی
    # Arabic kaf and Persian keheh: the same letter on Arabic and Persian keyboards.
    "\u0643": "\u06a9",  # ك -> ک
    # Teh marbuta as heh: Persian writes Arabic loans with ه (مدرسه), and much typed Arabic
    # does too. It merges a noun with the noun + "his" (كتابة/كتابه), a stemmer's choice
    # (Lucene's Arabic normaliser makes the same one).
    "\u0629": "\u0647",  # ة -> ه
    "\u06d5": "\u0647",  # ە (ۀ without its hamza) -> ه
    "\u06c1": "\u0647",  # ہ heh goal (Urdu h, and ۂ without hamza) -> ه
    "\u06c3": "\u0647",  # ۃ -> ه
    "\u0671": "\u0627",  # ٱ alef wasla -> ا
    # Hamza seats and madda are deleted as marks by step 2, so أ/إ/آ/ا, ؤ/و, ئ/ي are merged:
    # readers often leave the hamza out (پائیز/پاییز, مؤثر/موثر). Standalone hamza ء stays:
    # Persian جزء (part) and جز (except) are both common.
    # Arabic-Indic and Persian digits, and Arabic decimal, thousands and percent signs.
    **{chr(0x0660 + d): str(d) for d in range(10)},
    **{chr(0x06F0 + d): str(d) for d in range(10)},
    "\u066b": ".",
    "\u066c": ",",
    "\u066a": "%",
    # Cyrillic ё as е: Russian print and readers mostly write е for ё (все/всё, елка/ёлка), so
    # a query must find either. Snowball's Russian stemmer folds it the same way; lunr's older
    # copy of it does not read ё as a vowel and would leave ёлка unstemmed. (As every letter
    # here, on every page: in Belarusian, which always writes ё, it merges the few words told
    # apart by ё alone.)
    "\u0451": "\u0435",  # ё -> е
    # Hebrew final letters (ךםןףץ) are not folded: readers type them, and a final letter marks
    # the end of a word. Folded, every query (a word beginning for Material) ending in one
    # would match longer words: אם* found אמר, אמת... (measured: "אם" from 4 to 7 pages of 11).
}

QUERY_LIMIT = 500
"""The characters (code points) of a query the search worker reads; the rest is dropped before
anything reads it (search_text.js, ``bounded``), in every language. A query is a few words, or
a sentence pasted from a page to find it again: the longest sentence of the site's pages is
about 300 characters, and 500 Han characters are a whole paragraph of Chinese. Material's own
cut of a Han run in the worker costs the square of its length whatever the plugin does (see
search_text.js), so an unbounded query could hold the worker for minutes: 5,000 Han
characters took 104 s (issue 43)."""

IN_WORD_DELETED = "(?<=[\\u05d0-\\u05ea])['\"\\u05f3\\u05f4]+(?=[\\u05d0-\\u05ea])"
"""A regular expression (the same in Python and JavaScript): geresh, gershayim and their ASCII
stand-ins between two Hebrew letters are deleted, so צה״ל, צה"ל and צהל are one word."""

SEPARATORS = "\u05be"
"""Split words like a hyphen (search.py adds them to the index's separator): the Hebrew maqaf
joins a prefix to a foreign word or number (ב־softmax), which must still be found."""


def _hebrew_prefixes() -> list[str]:
    """Clitic chains before a Hebrew word: ו (and), then ש/כש (that, when), then one of
    ה/ב/ל/כ/מ/מה (the, in, to, as, from, from the): והמחברת, שבמחברת, וכשהמשקלים."""
    chains = itertools.product(("", "ו"), ("", "ש", "כש"), ("", "ה", "ב", "ל", "כ", "מ", "מה"))
    return sorted({"".join(chain) for chain in chains} - {""}, key=lambda p: (len(p), p))


# Arabic: the prefixes of the light10 stemmer (Larkey, Ballesteros and Connell 2002): the
# article, the article after و/ب/ك/ف, لل (ل + article), and و alone. The single-letter
# prepositions ب/ل/ف/ك are left: too many words start with those letters.
ARABIC_PREFIXES = ["ال", "وال", "بال", "كال", "فال", "لل", "و"]


def _code_point_ranges(predicate: Callable[[str], bool]) -> list[list[int]]:
    ranges: list[list[int]] = []
    for code in range(0x110000):
        if predicate(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return ranges


def _deleted(char: str) -> bool:
    category = unicodedata.category(char)
    if category == "Cf" or char in DELETED_CHARACTERS:
        return True
    return category == "Mn" and unicodedata.name(char, "").startswith(ABJADS)


def _trimmed(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


@cache
def _character_sets() -> tuple[frozenset[str], frozenset[str]]:
    """Deleted characters and characters trimmed from the ends, as sets (from rules())."""
    data = rules()
    return tuple(frozenset(chr(c) for lo, hi in data[key] for c in range(lo, hi + 1)) for key in ("delete", "trim"))  # type: ignore[return-value]


@cache
def rules() -> dict[str, Any]:
    """The whole definition as JSON-ready data: what the browser side reads."""
    return {
        "delete": _code_point_ranges(_deleted),
        "trim": _code_point_ranges(_trimmed),
        "inWord": IN_WORD_DELETED,
        "letters": LETTERS,
        "joiner": ZWNJ,
        "prefixes": _prefixes(),
        "minRemainder": MIN_REMAINDER,
        "queryLimit": QUERY_LIMIT,
    }


@cache
def _prefixes() -> list[str]:
    """Every prefix, written as normalise() writes it (كال is کال), longest first."""
    written = {_normalise_letters(p) for p in _hebrew_prefixes() + ARABIC_PREFIXES}
    return sorted(written, key=lambda p: (-len(p), p))


def rules_json() -> str:
    return json.dumps(rules(), ensure_ascii=True, separators=(",", ":"), sort_keys=True)


PLUGIN_NAME = "normalised"
"""The lunr "language" of an index that is not stemmed or stemmed with lunr's own (English)
stemmer; ``normalised-<stemmer>`` with one of lunr-languages' stemmers."""

LUNR_STEMMER = "en"
"""lunr's own stemmer (Porter's, built into lunr): the plugin ``normalised`` applies it where an
index keeps it."""


def plugin_name(stemmer: str | None = None, segmenter: str | None = None) -> str:
    """The lunr "language" of an index: ``normalised``, ``normalised-<stemmer>`` for one of
    lunr-languages' stemmers, ``normalised-segmented-<locale>`` for a language whose words the
    locale's segmenter finds (``segmenter_for``)."""
    name = PLUGIN_NAME if stemmer in (None, LUNR_STEMMER) else f"{PLUGIN_NAME}-{stemmer}"
    return name if segmenter is None else f"{name}-segmented-{segmenter}"


def javascript(stemmer: str | None = None, segmenter: str | None = None) -> str:
    """search_text.js with the rules filled in: the lunr plugin the search worker loads.

    The plugin ``normalised`` stems with lunr's own (English) stemmer where an index keeps
    it. With one of lunr-languages' stemmers (a key of SNOWBALL_STEMMERS but en), the plugin
    is ``normalised-<stemmer>`` and its file starts with lunr-languages' file for it from
    Material's bundle: Material's worker loads one file per language an index names, and calls
    a language's plugin only when the index names one language (with several it merges their
    stemmers and stop word filters through lunr.multiLanguage and never calls this plugin).
    With a ``segmenter`` (a locale, ``segmenter_for``) the plugin segments that language's
    words (``normalised-segmented-<locale>``)."""
    of_lunr_languages = stemmer not in (None, LUNR_STEMMER)
    plugin = {
        "name": plugin_name(stemmer, segmenter),
        "stemmer": stemmer if of_lunr_languages else None,
        "segmenter": segmenter,
    }
    own = JS_SOURCE.read_text(encoding="utf-8").replace("/*RULES*/null", rules_json(), 1)
    own = own.replace("/*PLUGIN*/null", json.dumps(plugin, separators=(",", ":")), 1)
    if not of_lunr_languages:
        return own
    if stemmer not in SNOWBALL_STEMMERS:
        raise ValueError(f"no Snowball stemmer '{stemmer}' in Material's bundle: {', '.join(SNOWBALL_STEMMERS)}")
    return lunr_language_file(stemmer).read_text(encoding="utf-8") + "\n" + own


# --------------------------------------------------------------------------- stemming

SNOWBALL_STEMMERS: dict[str, tuple[str, str]] = {
    "en": ("porter", "latin"),  # lunr's own: Porter's, but a final y stays after a vowel (key, not kei)
    "da": ("danish", "latin"),
    "de": ("german", "latin"),
    "es": ("spanish", "latin"),
    "fi": ("finnish", "latin"),
    "fr": ("french", "latin"),
    "hu": ("hungarian", "latin"),
    "it": ("italian", "latin"),
    "nl": ("dutch_porter", "latin"),  # lunr's Dutch is Snowball's Porter-based one, not its newer
    "no": ("norwegian", "latin"),
    "pt": ("portuguese", "latin"),
    "ro": ("romanian", "latin"),
    "ru": ("russian", "cyrillic"),
    "sv": ("swedish", "latin"),
    "tr": ("turkish", "latin"),
}
"""The stemmers the browser has, by code: lunr's own (en) and lunr-languages' plugins in
Material's bundle that are generated from Snowball (lunr/min/lunr.<code>.min.js); for each, the
Snowball algorithm it implements and the script it reads. lunr-languages' others are not
stemmers of this kind: ar and he are light stemmers the site's own normalisation replaces
(above), hi/ta/te/kn/sa/hy/el are not from Snowball, ja/th/zh/ko/vi segment words.

lunr-languages' copies are older than the snowballstemmer package, the reference. On the words
of babel's locale data (tests/site_hooks/test_search_text.py) Russian (once ё is е, see LETTERS), Danish,
Dutch, Italian, Norwegian, Spanish and Turkish agree on every word, Hungarian and Portuguese on
all but one; Swedish, Romanian (which does not read ș ț with a comma below, the modern
spelling), French, Finnish and German differ on 0.3% to 2.2% of them. lunr's English stemmer
differs from Snowball's Porter only by design (short words, a final y)."""

STEMMER_CODES = {"nb": "no", "pt-BR": "pt"}
"""Language codes whose stemmer has another code in lunr-languages (otherwise: the code, or
its first part: pt-BR is pt). Nynorsk (nn) has none: lunr's Norwegian reads Bokmål."""


def stemmer_for(code: str, script: str) -> str | None:
    """The stemmer (a key of SNOWBALL_STEMMERS) of a language written in ``script``, or None.

    A language is stemmed only in the script its algorithm reads: Hebrew and Arabic script
    never have one here, and keep the site's own normalisation and clitic splitting."""
    stemmer = STEMMER_CODES.get(code, code.split("-")[0])
    found = SNOWBALL_STEMMERS.get(stemmer)
    return stemmer if found is not None and found[1] == script else None


def segmenter_for(locale: str, script: str) -> str | None:
    """The locale whose word segmenter finds the words of a language written in ``script``:
    ``locale`` itself where the script is written without spaces (languages.UNSPACED_SCRIPTS:
    Chinese, Japanese; not Korean), else None (words are what the separators split)."""
    return locale if script in UNSPACED_SCRIPTS else None


def separate_words(texts: list[str], segmenter: str) -> list[str]:
    """Each text (HTML, as a search index holds it) with U+200B between the words of a script
    written without spaces, as ``segmenter``'s Intl.Segmenter finds them, outside tags.

    One Node process for all the texts (separate_words.mjs), running the browser side's own
    function (``separated`` of search_text.js) on the platform's segmenter: the build and
    the page cut words alike."""
    if not texts:
        return []
    where = f"segmenting the search index's words ({segmenter})"
    request = json.dumps({"plugin": javascript(segmenter=segmenter), "texts": texts}, ensure_ascii=False)
    try:
        result = subprocess.run(
            ["node", str(SEPARATE_WORDS)], input=request, capture_output=True, text=True, encoding="utf-8"
        )
    except FileNotFoundError as error:
        raise PluginError(f"{where} needs Node.js ({error})") from error
    if result.returncode:
        raise PluginError(f"{where} failed:\n{result.stderr.strip()}")
    separated = json.loads(result.stdout)
    if len(separated) != len(texts):
        raise PluginError(f"{where}: {len(texts)} texts in, {len(separated)} out")
    return [str(text) for text in separated]


def lunr_language_file(stemmer: str) -> Path:
    """Material's copy of lunr-languages' plugin for ``stemmer`` (it defines lunr.<stemmer>)."""
    import material  # the theme package, installed with mkdocs-material

    bundle = Path(material.__file__).parent / "templates" / "assets" / "javascripts" / "lunr"
    return bundle / "min" / f"lunr.{stemmer}.min.js"


def stem(term: str, stemmer: str) -> str:
    """``term`` (normalised) stemmed by the reference implementation of the algorithm of the
    browser's ``stemmer`` (the snowballstemmer package, which only the tests need: the browser
    stems with lunr's and lunr-languages' own copies)."""
    return str(_snowball(SNOWBALL_STEMMERS[stemmer][0]).stemWord(term))


@cache
def _snowball(algorithm: str) -> Any:
    import snowballstemmer  # type: ignore[import-untyped]

    return snowballstemmer.stemmer(algorithm)


_IN_WORD = re.compile(IN_WORD_DELETED)


def _normalise_letters(text: str) -> str:
    return "".join(LETTERS.get(char, char) for char in text)


def normalise(word: str) -> str:
    """The form a word is indexed and searched by (empty if nothing searchable is left)."""
    deleted, trimmed = _character_sets()
    text = "".join(char for char in unicodedata.normalize("NFKD", word) if char not in deleted)
    text = unicodedata.normalize("NFC", _IN_WORD.sub("", text)).lower()
    text = _normalise_letters(text)
    start, end = 0, len(text)
    while start < end and text[start] in trimmed:
        start += 1
    while end > start and text[end - 1] in trimmed:
        end -= 1
    return text[start:end]


def variants(token: str) -> list[str]:
    """The normalised token, then its candidate forms without a clitic, without repeats.

    Candidates are not yet checked against the vocabulary (see ``index_terms``).
    """
    primary = normalise(token)
    if not primary:
        return []
    found = [primary]
    pieces = [normalise(piece) for piece in token.split(ZWNJ)] if ZWNJ in token else []
    for candidate in pieces + [primary[len(p) :] for p in _prefixes() if primary.startswith(p)]:
        if len(candidate) >= MIN_REMAINDER and candidate not in found:
            found.append(candidate)
    return found


def index_terms(token: str, vocabulary: set[str] | frozenset[str]) -> list[str]:
    """What one token of a page is indexed as: its normalised form, and each candidate
    without a clitic that appears in ``vocabulary`` (the normalised tokens of the index)."""
    found = variants(token)
    return found[:1] + [candidate for candidate in found[1:] if candidate in vocabulary]


def query_terms(word: str, terms: set[str] | frozenset[str]) -> list[str]:
    """What a query word searches for: its normalised form (as a word beginning, like every
    Material query word), then each candidate without a clitic that is an indexed term (as a
    whole word: ב+אות must not find every אותו and אותה). A word typed with ZWNJ is one
    word: ادغام‌شده must not find every page with شده."""
    found = variants(word.replace(ZWNJ, ""))
    return found[:1] + [candidate for candidate in found[1:] if candidate in terms]


def vocabulary(tokens: Iterable[str]) -> frozenset[str]:
    return frozenset(filter(None, map(normalise, tokens)))
