/* How search compares words, for Material's lunr search worker: a lunr "language" plugin.

   search.py publishes this file, with the rules of site_hooks/i18n/search_text.py filled in,
   as assets/javascripts/lunr/min/lunr.normalised.min.js and writes "lang": ["normalised"]
   into every search index, so Material's worker loads it with importScripts and calls
   builder.use(lunr.normalised). search_text.py explains the rules; this file applies the
   same steps to every indexed token and every query word (tests/test_search_text.py checks
   that both give the same answer).

   - Index: each token becomes its normalised form, plus its forms without a clitic (ZWNJ
     pieces, prefixes) that appear elsewhere in the index as words of their own. Both keep
     the token's position, so Material highlights the word as written.
   - Query: lunr skips its search pipeline for words with a wildcard, which is every word
     Material sends, so the index's search() normalises each word itself, adds its forms
     without a clitic that are indexed terms (as whole words), and tells Material's result
     analysis that the word as typed was found (or a result would say "Missing: ..."). */
(function (root) {
  "use strict"

  const RULES = /*RULES*/null

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

  root.attentionSearchText = { rules: RULES, normalise, variants, indexTerms, queryTerms }

  const lunr = root.lunr
  if (typeof lunr === "undefined") return  // outside the search worker (tests under Node)

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

  /* Material's result analysis takes a query word as found when a matched term starts with
     it as typed; when only its normalised form or a form without a clitic matched, it is
     recorded as found too (with no positions: nothing more to highlight). Positions are
     kept once per field, or Material would wrap a word in two <mark>s. */
  function analysable(results, asked) {
    for (const { matchData } of results) {
      const metadata = matchData.metadata
      const terms = Object.keys(metadata)
      for (const { typed, searched } of asked)
        if (!terms.some(term => term.startsWith(typed)) &&
            terms.some(term => searched.some(form => term.startsWith(form))))
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

  function searchable(index) {
    const terms = new Set(Object.keys(index.invertedIndex))
    index.search = function (queryString) {
      const asked = []
      const results = this.query(query => {
        new lunr.QueryParser(queryString, query).parse()
        for (const clause of query.clauses.slice()) {
          const [, lead, typed, trail] = /^(\*?)([\s\S]*?)(\*?)$/.exec(clause.term)
          const optional = clause.presence === lunr.Query.presence.OPTIONAL
          const searched = optional ? queryTerms(typed, terms) : variants(typed).slice(0, 1)
          if (!searched.length) continue
          clause.term = lead + searched[0] + trail
          for (const form of searched.slice(1))  // a whole word: no trailing wildcard
            query.clause({ ...clause, term: lead + form, wildcard: lunr.Query.wildcard.NONE, usePipeline: false })
          if (clause.presence !== lunr.Query.presence.PROHIBITED)
            asked.push({ typed, searched })
        }
      })
      return analysable(results, asked)
    }
    return index
  }

  function plugin(builder) {
    builder.pipeline.reset()
    builder.pipeline.add(indexToken, lunr.trimmer, lunr.stopWordFilter, lunr.stemmer)
    builder.searchPipeline.reset()
    builder.searchPipeline.add(queryToken, lunr.stemmer)

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
      for (const [doc, attributes] of pending) add.call(this, doc, attributes)
      return searchable(build.call(this))
    }
  }
  /* Material removes the functions a search index's config.pipeline does not name, looking
     them up on the language plugin: these are lunr's English ones, as with "lang": ["en"]. */
  plugin.trimmer = lunr.trimmer
  plugin.stopWordFilter = lunr.stopWordFilter
  plugin.stemmer = lunr.stemmer
  lunr.normalised = plugin
})(globalThis)
