/* How search compares words, for Material's lunr search worker: a lunr "language" plugin.

   search.py publishes this file, with the rules of site_hooks/i18n/search_text.py filled in,
   as assets/javascripts/lunr/min/lunr.normalised.min.js and writes "lang": ["normalised"]
   into a search index, so Material's worker loads it with importScripts and calls
   builder.use(lunr.normalised). For a language with a Snowball stemmer (Russian...) the file
   is lunr.normalised-ru.min.js, lunr-languages' lunr.ru.min.js from Material's bundle before
   this text, and the index names "normalised-ru". search_text.py explains the rules; this
   file applies the same steps to every indexed token and every query word
   (tests/site_hooks/test_search_text.py checks that both give the same answer).

   - Index: each token becomes its normalised form, plus its forms without a clitic (ZWNJ
     pieces, prefixes) that appear elsewhere in the index as words of their own. Both keep
     the token's position, so Material highlights the word as written.
   - Query: lunr skips its search pipeline for words with a wildcard, which is every word
     Material sends, so the index's search() normalises each word itself, adds its forms
     without a clitic that are indexed terms (as whole words), and tells Material's result
     analysis that the word as typed was found (or a result would say "Missing: ...").
   - Stemming: where the index keeps the stemmer (its config.pipeline names "stemmer"),
     every indexed term is indexed as itself and as its stem, and a query word searches its
     stem as a whole word beside the word as typed (a word beginning): «весов» searches
     весов* and вес, and «веса» was indexed веса and вес. (lunr does not stem a query word
     with a wildcard, and Material gives every word one: a stemmed index alone would miss
     весов*.) What a word beginning found before stemming it still finds: add* finds added,
     which lunr's Porter stems ad.
   - Words of a language written without spaces (Chinese, Japanese: "segmented" below; the
     file is lunr.normalised-segmented-<locale>.min.js, PLUGIN.segmenter the locale, and the
     index names it): the platform's word segmenter, Intl.Segmenter, cuts the text
     where a word that is written without spaces begins or ends. The build has done it once to
     every page (search.py runs separated() below under Node: U+200B between the words, a
     separator of the index), Material's tokenizer does it again in the worker to each piece
     (the same segmenter as the query's, for a query typed as the page writes it), and the
     index's search() cuts each query word so: 链式法则 searches 链式* and 法则* (and a piece
     no indexed word begins with again at the index's words: piecesAtTerms).
   - Bounded, in every language: the worker reads a query's first RULES.queryLimit characters
     (QUERY_LIMIT in search_text.py), bounded where the query enters it (boundQueries), since
     Material's worker cuts each run of Han characters in time that grows faster than the
     square of its length before this plugin is called. What the plugin does itself grows with
     the length of what it reads (segments, piecesAtTerms, analysable). */
(function (root) {
  "use strict"

  const RULES = /*RULES*/null
  /* The lunr "language" this file defines, the lunr-languages stemmer it applies and the
     locale whose words it segments: {name: "normalised", stemmer: null, segmenter: null}
     (lunr's English stemmer, kept only where the index says so), {name: "normalised-ru",
     stemmer: "ru", segmenter: null} or {name: "normalised-segmented-zh", stemmer: null,
     segmenter: "zh"}. */
  const PLUGIN = /*PLUGIN*/null

  const inRanges = (ranges, code) => {
    let lo = 0, hi = ranges.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (ranges[mid][1] < code) lo = mid + 1
      else if (ranges[mid][0] > code) hi = mid
      else return true
    }
    return false
  }
  const inWord = new RegExp(RULES.inWord, "gu")

  /* The form a word is indexed and searched by ("" if nothing searchable is left). */
  function normalise(word) {
    let text = ""
    for (const char of word.normalize("NFKD"))
      if (!inRanges(RULES.delete, char.codePointAt(0))) text += char
    text = text.replace(inWord, "").normalize("NFC").toLowerCase()
    const chars = []
    for (const char of text) chars.push(RULES.letters[char] ?? char)
    const mapped = Array.from(chars.join(""))
    let start = 0, end = mapped.length
    while (start < end && inRanges(RULES.trim, mapped[start].codePointAt(0))) start++
    while (end > start && inRanges(RULES.trim, mapped[end - 1].codePointAt(0))) end--
    return mapped.slice(start, end).join("")
  }

  /* The normalised token, then its candidate forms without a clitic, without repeats. */
  function variants(token) {
    const primary = normalise(token)
    if (!primary) return []
    const found = [primary]
    const pieces = token.includes(RULES.joiner) ? token.split(RULES.joiner).map(normalise) : []
    const stripped = RULES.prefixes.filter(p => primary.startsWith(p)).map(p => primary.slice(p.length))
    for (const candidate of [...pieces, ...stripped])
      if (Array.from(candidate).length >= RULES.minRemainder && !found.includes(candidate))
        found.push(candidate)
    return found
  }

  const indexTerms = (token, vocabulary) =>
    variants(token).filter((term, i) => i === 0 || vocabulary.has(term))

  const queryTerms = (word, terms) => {
    const [primary, ...candidates] = variants(word.split(RULES.joiner).join(""))
    return primary ? [primary, ...candidates.filter(term => terms.has(term))] : []
  }

  /* A character of a script written without spaces between words: Han, hiragana, katakana
     (and the katakana prolonged sound mark, of no script of its own). */
  const UNSPACED = "\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\u30fc"
  const unspacedStart = new RegExp(`^[${UNSPACED}]`, "u"), unspacedEnd = new RegExp(`[${UNSPACED}]$`, "u")
  const unspaced = new RegExp(`[${UNSPACED}]`, "u")
  /* The language's word segmenter where it is written without spaces and the platform has one
     (every current browser; Node). Without one, the page searches as Material does (below). */
  const segmenter = PLUGIN.segmenter && typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter(PLUGIN.segmenter, { granularity: "word" }) : null

  /* How much text one call of the segmenter reads (UTF-16 code units). ICU's dictionary cut of
     Han text costs more than its length: 40,000 characters took 0.2-0.3 s in one call, 80,000
     7.7 s, the same text in calls of 1,000 characters 33 ms and 94 ms (Node 20). A text up
     to this length, every query (QUERY_LIMIT) and every paragraph of the site, is cut in one
     call as before. */
  const SEGMENT_WINDOW = 1000

  /* The segmenter's segments of ``text`` (strings, in order, joined they are ``text``), read
     SEGMENT_WINDOW code units at a time: each window's last segment, which the window's end
     may have cut short, is read again at the start of the next one; a single segment longer
     than a window is cut at the window's end (not inside a surrogate pair). So the work grows
     with the text's length. */
  function* segments(text) {
    for (let start = 0; start < text.length;) {
      let end = start + SEGMENT_WINDOW
      if (end >= text.length) {
        for (const { segment } of segmenter.segment(text.slice(start))) yield segment
        return
      }
      if (/[\ud800-\udbff]/.test(text[end - 1])) end--
      let last = null
      for (const { segment, index } of segmenter.segment(text.slice(start, end))) {
        if (last !== null) yield last.segment
        last = { segment, index }
      }
      if (last.index === 0) {
        yield last.segment
        start = end
      } else {
        start += last.index
      }
    }
  }

  const WHITE_SPACE_END = /\s$/u, WHITE_SPACE_START = /^\s/u

  /* ``text`` cut at the segmenter's word boundaries that have a character of a script written
     without spaces on one side and no white space on either: the pieces, in order (joined, they
     are ``text``). Other boundaries are left to the index's separators, so text in other
     scripts is read as on any page: softmax(x) stays one piece, softmax函数 is softmax and 函数.
     Whether to cut is read from the two segments beside the boundary (the last character of
     one, the first of the other), never from the piece so far, which may be long. */
  function pieces(text) {
    if (!segmenter) return [text]
    const cut = (before, after) => (unspacedEnd.test(before) || unspacedStart.test(after)) &&
      !WHITE_SPACE_END.test(before) && !WHITE_SPACE_START.test(after)
    const found = []
    let previous = null
    for (const segment of segments(text)) {
      if (previous !== null && !cut(previous, segment)) found[found.length - 1] += segment
      else found.push(segment)
      previous = segment
    }
    return found
  }

  /* A page's field (HTML, as in the index) with U+200B between the pieces of its text, outside
     tags: what the build stores in a segmented index (see search.py). */
  const separated = html => html.split(/(<[^>]*>)/).map((part, i) => i % 2 ? part : pieces(part).join("\u200b")).join("")

  /* The words a query word searches for: its pieces that have something searchable. */
  function queryWords(word) {
    const words = pieces(word).filter(piece => normalise(piece))
    return words.length ? words : [word]
  }

  /* A query as the worker reads it: its first RULES.queryLimit characters (code points; see
     QUERY_LIMIT in search_text.py), the rest dropped. */
  function bounded(query) {
    let count = 0, end = 0
    for (const char of query) {
      if (count++ === RULES.queryLimit) return query.slice(0, end)
      end += char.length
    }
    return query
  }

  const api = root.attentionSearchText = {
    rules: RULES, plugin: PLUGIN, normalise, variants, indexTerms, queryTerms,
    segments: segmenter !== null, pieces, separated, queryWords, bounded,
  }

  const lunr = root.lunr
  if (typeof lunr === "undefined") return  // outside the search worker (tests under Node)

  /* Every query reaches the worker as a message, {type: 2, data: "<the query>"} (Material's
     protocol: 0 set-up, 1 ready, 2 query, 3 results), whose data its one listener reads
     before anything else: then Material cuts each run of Han characters at the index's terms,
     trying every piece of the run (in its worker's search()), in time that grows with the
     square of the run's length and more, before the plugin is called. So the query is bounded
     where it enters: the plugin, which the set-up message loads, makes every later message
     give its query as ``bounded`` leaves it. */
  const QUERY_MESSAGE = 2
  function boundQueries(MessageEvent) {
    const data = MessageEvent && Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data")
    if (!data?.get || !data.configurable) return
    Object.defineProperty(MessageEvent.prototype, "data", {
      ...data,
      get() {
        const message = data.get.call(this)
        if (message?.type !== QUERY_MESSAGE || typeof message.data !== "string") return message
        const query = bounded(message.data)
        return query === message.data ? message : { ...message, data: query }
      },
    })
  }
  boundQueries(root.MessageEvent)

  const stemmer = PLUGIN.stemmer ? lunr[PLUGIN.stemmer].stemmer : lunr.stemmer
  /* A normalised term as the stemmer leaves it. */
  function stem(term) {
    const token = stemmer(new lunr.Token(term, {}))
    return token ? token.toString() : term
  }
  api.stem = stem

  /* An indexed term, and its stem beside it where they differ: the stem finds the word's
     other forms, the term what a word beginning found before stemming (add* still finds
     added, which lunr's Porter stems ad). Both keep the token's position. */
  function stemmedToo(token) {
    const stemmed = stemmer(token.clone())
    return stemmed && stemmed.toString() !== token.toString() ? [token, stemmed] : token
  }
  lunr.Pipeline.registerFunction(stemmedToo, "normalisedStemmedToo")

  /* The index's words (normalised), known before any document is added; see build below. */
  let vocabulary = new Set()

  function indexToken(token) {
    const terms = indexTerms(token.toString(), vocabulary)
    return terms.length ? terms.map(term => token.clone(() => term)) : undefined
  }
  function queryToken(token) {
    const term = normalise(token.toString())
    return term ? token.clone(() => term) : undefined
  }
  lunr.Pipeline.registerFunction(indexToken, "normalisedIndexToken")
  lunr.Pipeline.registerFunction(queryToken, "normalisedQueryToken")

  /* Whether one of ``terms`` begins with a prefix: a binary search of the terms, sorted. */
  function beginsWith(terms) {
    const sorted = [...terms].sort()
    return prefix => {
      let lo = 0, hi = sorted.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (sorted[mid] < prefix) lo = mid + 1
        else hi = mid
      }
      return lo < sorted.length && sorted[lo].startsWith(prefix)
    }
  }

  /* Material's result analysis takes a query word as found when a matched term starts with
     it as typed; when only its normalised form or a form without a clitic matched, it is
     recorded as found too (with no positions: nothing more to highlight); so is a word of a
     segmented language whose every piece was found (链式法则 as 链式 and 法则). ``asked``:
     per query word, the forms searched for each of its pieces. Positions are kept once per
     field, or Material would wrap a word in two <mark>s. */
  function analysable(results, asked) {
    for (const { matchData } of results) {
      const metadata = matchData.metadata
      const terms = Object.keys(metadata)
      const matched = beginsWith(terms)
      for (const { typed, searched } of asked)
        if (!matched(typed) && searched.every(forms => forms.some(matched)))
          metadata[typed] = Object.create(null)
      const seen = Object.create(null)
      for (const term of terms) {
        const fields = Object.create(null)
        for (const [field, data] of Object.entries(metadata[term])) {
          const positions = seen[field] ??= new Set()
          fields[field] = { ...data, position: (data.position || []).filter(p => !positions.has(p) && positions.add(p)) }
        }
        metadata[term] = fields
      }
    }
    return results
  }

  /* queryWords for an index of a segmented language whose ``terms`` are given: a piece that no
     term begins with is cut again at the terms, longest first, if it is made of terms alone.
     The build cut the pages in their sentences, maybe with another version of ICU than the
     reader's browser, and a segmenter may cut a word finer in a sentence than alone: the
     query 注意力 still finds a page cut 注意|力. A word the pages do not write stays whole.
     The terms are read through a tree of their characters, made on the first such piece: each
     character of a piece is read at most as many times as the longest term is long. */
  function piecesAtTerms(terms) {
    const begins = beginsWith(terms)
    let tree = null
    function termTree() {  // a node per term beginning: {next: Map(character -> node), term: whether one ends here}
      const root = { next: new Map(), term: false }
      for (const term of terms) {
        let node = root
        for (const char of term) {
          let child = node.next.get(char)
          if (!child) node.next.set(char, child = { next: new Map(), term: false })
          node = child
        }
        node.term = true
      }
      return root
    }
    function atTerms(word) {  // the word cut at terms, longest first; null if a part is none
      tree ??= termTree()
      const chars = Array.from(word), cut = []
      for (let i = 0; i < chars.length;) {
        let node = tree, longest = i
        for (let j = i; j < chars.length && (node = node.next.get(chars[j])); j++)
          if (node.term) longest = j + 1
        if (longest === i) return null
        cut.push(chars.slice(i, longest).join(""))
        i = longest
      }
      return cut
    }
    return typed => queryWords(typed).flatMap(word => {
      const term = normalise(word)
      return begins(term) ? [word] : atTerms(term) ?? [word]
    })
  }

  /* index.search, reading each query word as search_text says; ``stemmed`` is stem where the
     index's terms are stemmed, else the identity. In a segmented language each query word is
     cut into pieces as the pages were (queryWords), and each piece is searched as a word of
     its own with the word's presence and wildcard. */
  function searchable(index, stemmed) {
    const terms = new Set(Object.keys(index.invertedIndex))
    const indexed = { has: term => terms.has(stemmed(term)) }  // a candidate form's indexed term
    const words = segmenter ? piecesAtTerms(terms) : queryWords
    index.search = function (queryString) {
      const asked = []
      const results = this.query(query => {
        new lunr.QueryParser(queryString, query).parse()
        for (const clause of query.clauses.slice()) {
          const [, lead, typed, trail] = /^(\*?)([\s\S]*?)(\*?)$/.exec(clause.term)
          const optional = clause.presence === lunr.Query.presence.OPTIONAL
          const searched = []
          for (const word of words(typed)) {
            const [primary, ...candidates] = optional ? queryTerms(word, indexed) : variants(word).slice(0, 1)
            if (!primary) continue
            // the word as typed (a word beginning, as Material sends it; a word typed +/- has no
            // wildcard, and lunr's search pipeline normalises and stems it), then as whole words:
            // its stem (its other forms) and its forms without a clitic, stemmed
            if (searched.length) query.clause({ ...clause, term: lead + primary + trail })
            else clause.term = lead + primary + trail
            const whole = new Set(candidates.map(stemmed))
            if (optional && stemmed(primary) !== primary) whole.add(stemmed(primary))
            whole.delete("")
            for (const form of whole)
              query.clause({ ...clause, term: lead + form, wildcard: lunr.Query.wildcard.NONE, usePipeline: false })
            searched.push([primary, stemmed(primary), ...whole])
          }
          if (searched.length && clause.presence !== lunr.Query.presence.PROHIBITED)
            asked.push({ typed, searched })
        }
      })
      return analysable(results, asked)
    }
    return index
  }

  /* Material's tokenizer cuts a text between separators with ``lunr.segmenter`` where one is
     loaded: its worker makes it from ``lunr.TinySegmenter`` (lunr-languages' segmenter for
     Japanese), asks ``ctype_(text)`` for TinySegmenter's class of the text (cut if M, H, I
     or K: kanji, hiragana, katakana) and takes ``segment(text)``'s pieces in order (their
     lengths place the highlights). A segmented language's plugin offers the platform's
     segmenter under that name, so every page's pieces are cut as a query is. */
  function WordSegmenter() {}
  WordSegmenter.prototype.ctype_ = text => unspaced.test(text) ? "H" : "O"
  WordSegmenter.prototype.segment = pieces

  function plugin(builder) {
    if (segmenter) lunr.TinySegmenter = WordSegmenter
    builder.pipeline.reset()
    builder.pipeline.add(indexToken, lunr.trimmer, lunr.stopWordFilter, stemmedToo)
    builder.searchPipeline.reset()
    builder.searchPipeline.add(queryToken, stemmer)

    /* "Appears elsewhere as a word" needs every document's words before the first one is
       indexed: documents are collected, their words tokenized once to learn the vocabulary
       (Material's extractor resets its highlight table when called again), then added. */
    const add = builder.add, build = builder.build, pending = []
    builder.add = function (doc, attributes) { pending.push([doc, attributes]) }
    builder.build = function () {
      vocabulary = new Set()
      for (const [doc] of pending)
        for (const [name, { extractor }] of Object.entries(this._fields)) {
          const value = extractor ? extractor(doc) : doc[name]
          if (value == null) continue
          for (const token of this.tokenizer(value, { fields: [name] })) {
            const term = normalise(token.toString())
            if (term) vocabulary.add(term)
          }
        }
      // Material has removed by now the functions the index's config.pipeline does not name;
      // a word typed +/- (lunr's search pipeline) is stemmed where the index is
      const stems = this.pipeline.toJSON().includes(stemmedToo.label)
      if (!stems) this.searchPipeline.remove(stemmer)
      for (const [doc, attributes] of pending) add.call(this, doc, attributes)
      const index = searchable(build.call(this), stems ? stem : term => term)
      /* Before the query reaches search(), Material cuts each run of Han characters in it
         greedily at the index's terms (its "experimental Chinese segmentation", which never
         tries the whole run: 掷硬币 became 掷 alone), asking ``term in invertedIndex``. Where
         the query is cut as the pages were, that question is answered no, so Material leaves
         the run whole; lunr reads the terms without ``in``. */
      if (segmenter) index.invertedIndex = new Proxy(index.invertedIndex, { has: () => false })
      return index
    }
  }
  /* Material removes the functions a search index's config.pipeline does not name, looking
     them up on the language plugin: lunr's English trimmer and stop word filter (as with
     "lang": ["en"]; lunr-languages' trimmer would strip every letter outside its alphabet,
     softmax on a Russian page), and the stemmer. */
  plugin.trimmer = lunr.trimmer
  plugin.stopWordFilter = lunr.stopWordFilter
  plugin.stemmer = stemmedToo
  lunr[PLUGIN.name] = plugin
})(globalThis)
