// Separates the words of a language written without spaces in a search index's texts, for the
// build (site_hooks/i18n/search_text.py, separate_words): one process for the whole index.
//
//   node separate_words.mjs  < {"plugin": "<the language's search plugin>", "texts": ["<p>…</p>", …]}
//     -> ["<p>…</p>", …]: each text with U+200B between its words, outside tags
//
// It runs the plugin the search worker loads (search_text.js with its rules and locale filled
// in) and calls its own `separated`, on Node's Intl.Segmenter: the build cuts words with the
// code and the segmenter (ICU's) that cut the reader's query in the page.
import fs from "node:fs"
import vm from "node:vm"

const { plugin, texts } = JSON.parse(fs.readFileSync(0, "utf8"))
const context = vm.createContext({})
vm.runInContext(plugin, context)
const text = context.attentionSearchText
if (!text.segments)
  throw new Error(`this Node.js has no word segmenter for "${text.plugin.segmenter}" (Intl.Segmenter, full ICU)`)
process.stdout.write(JSON.stringify(texts.map(text.separated)))
