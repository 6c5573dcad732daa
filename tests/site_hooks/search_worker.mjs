// Runs the browser side of search under Node, for tests/site_hooks/test_search_text.py.
//
//   node tests/site_hooks/search_worker.mjs text <plugin.js> [<material worker.js>]  < {"words": [...], "vocabulary": [...]}
//     -> for each word: normalise, variants, indexTerms (against vocabulary), queryTerms
//        (against vocabulary as the index's terms), computed by the plugin's own functions;
//        given Material's worker (lunr inside) and so lunr's stemmer support loaded before
//        the plugin, also stem: the word normalised, then stemmed by the plugin's stemmer.
//   node tests/site_hooks/search_worker.mjs worker <material worker.js> <plugin.js> <index.json> [--no-segmenter] [--timed]  < ["query", ...]
//     -> Material's search worker itself (lunr inside), set up with the index as Material's
//        page does, answering each query: {query: [{location, title, text, terms}] per result
//        group}; with --no-segmenter, in a worker whose platform has no Intl.Segmenter; with
//        --timed, [{characters, ms, groups}] per query instead: its length in code points,
//        the time from the message to the answer, the number of result groups.
//   node tests/site_hooks/search_worker.mjs pieces <plugin.js>  < ["text", ...]
//     -> for each text: the plugin's pieces of it (its segmented language's words) and the
//        length of the text each call of Intl.Segmenter's segment() was given, in order.
//
// Each prints one JSON document on stdout.
import fs from "node:fs"
import path from "node:path"
import vm from "node:vm"

const [mode, ...args] = process.argv.slice(2)
const input = JSON.parse(fs.readFileSync(0, "utf8"))

function context() {
  const ctx = { console, setTimeout, clearTimeout, URL, TextEncoder, TextDecoder, MessageEvent, addEventListener() {} }
  ctx.self = ctx
  vm.createContext(ctx)
  return ctx
}

if (mode === "text") {
  const [pluginFile, workerFile] = args
  const ctx = context()
  if (workerFile) {
    vm.runInContext(fs.readFileSync(workerFile, "utf8"), ctx)
    const support = path.resolve(path.dirname(workerFile), "../lunr/min/lunr.stemmer.support.min.js")
    vm.runInContext(fs.readFileSync(support, "utf8"), ctx)
  }
  vm.runInContext(fs.readFileSync(pluginFile, "utf8"), ctx)
  const text = ctx.attentionSearchText
  const vocabulary = new Set(input.vocabulary)
  const out = input.words.map(word => ({
    normalise: text.normalise(word),
    variants: text.variants(word),
    indexTerms: text.indexTerms(word, vocabulary),
    queryTerms: text.queryTerms(word, vocabulary),
    ...(workerFile && { stem: text.stem(text.normalise(word)) }),
  }))
  console.log(JSON.stringify(out))
} else if (mode === "worker") {
  const [workerFile, pluginFile, indexFile, ...flags] = args
  const ctx = context()
  if (flags.includes("--no-segmenter")) vm.runInContext("delete Intl.Segmenter", ctx)
  const listeners = []
  let answer = null
  ctx.addEventListener = (type, fn) => { if (type === "message") listeners.push(fn) }
  ctx.postMessage = message => { const done = answer; answer = null; done(message) }
  ctx.importScripts = (...urls) => {
    for (const url of urls) {
      const file = path.basename(url) === path.basename(pluginFile)
        ? pluginFile : path.resolve(path.dirname(workerFile), url)
      vm.runInContext(fs.readFileSync(file, "utf8"), ctx)
    }
  }
  vm.runInContext(fs.readFileSync(workerFile, "utf8"), ctx)
  const send = data => new Promise(resolve => {
    answer = resolve
    const event = new MessageEvent("message", { data })  // as a worker receives a message
    for (const fn of listeners) fn(event)
  })
  // Material's message types: 0 setup, 1 ready, 2 query, 3 result
  const index = JSON.parse(fs.readFileSync(indexFile, "utf8"))
  const ready = await send({ type: 0, data: { config: index.config, docs: index.docs, options: { suggest: false } } })
  if (ready.type !== 1) throw new Error(`search worker did not get ready: ${JSON.stringify(ready)}`)
  const out = {}, times = []
  for (const query of input) {
    const start = performance.now()
    const result = await send({ type: 2, data: query })
    times.push({ characters: Array.from(query).length, ms: performance.now() - start, groups: result.data.items.length })
    out[query] = result.data.items.map(group => group.map(({ location, title, text, terms }) => ({ location, title, text, terms })))
  }
  console.log(JSON.stringify(flags.includes("--timed") ? times : out))
} else if (mode === "pieces") {
  const [pluginFile] = args
  const reads = []
  class CountingSegmenter extends Intl.Segmenter {
    segment(text) {
      reads.push(text.length)
      return super.segment(text)
    }
  }
  const ctx = context()
  ctx.Intl = Object.assign(Object.create(Intl), { Segmenter: CountingSegmenter })
  vm.runInContext(fs.readFileSync(pluginFile, "utf8"), ctx)
  const out = input.map(text => {
    reads.length = 0
    return { pieces: ctx.attentionSearchText.pieces(text), reads: [...reads] }
  })
  console.log(JSON.stringify(out))
} else {
  throw new Error(`unknown mode ${mode}`)
}
