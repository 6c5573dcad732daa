// A small CodeMirror 6 Python editor for a live cell.
//
// Only what a learner needs (no autocomplete, search or gutters): that keeps the bundle
// small and makes the editor the same size as the prerendered code it replaces. Colours come
// from Material's syntax-highlighting variables, so the editor looks like the page's other
// code blocks (and follows dark mode) without a theme of its own.
import { EditorView, keymap, drawSelection, highlightSpecialChars } from "@codemirror/view";
import { EditorState } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { HighlightStyle, syntaxHighlighting, indentOnInput, bracketMatching, indentUnit, bidiIsolates } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { tags as t } from "@lezer/highlight";

const hl = (name) => `var(--md-code-hl-${name}-color)`;

// The same colour for the same token as Material gives Pygments' classes in the prerender.
const materialHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.meta], color: hl("keyword") },
  { tag: [t.operatorKeyword, t.operator, t.derefOperator, t.compareOperator, t.arithmeticOperator], color: hl("operator") },
  { tag: [t.punctuation, t.bracket, t.paren, t.squareBracket, t.brace, t.separator], color: hl("punctuation") },
  { tag: [t.string, t.docString], color: hl("string") },
  { tag: [t.special(t.string), t.escape], color: hl("special") },
  { tag: t.number, color: hl("number") },
  { tag: [t.comment, t.lineComment], color: hl("comment") },
  { tag: [t.self, t.standard(t.variableName)], color: hl("constant") },
  { tag: [t.function(t.definition(t.variableName)), t.definition(t.className), t.className], color: hl("function") },
  { tag: [t.bool, t.null, t.variableName, t.propertyName], color: hl("name") },
]);

/**
 * Mounts an editor in `parent`. `onRun` is called for Ctrl/Cmd+Enter, `onChange(text)` on
 * every edit. Tab indents; Escape then Tab leaves (CodeMirror's own tab-focus escape).
 */
export function createEditor({ parent, doc, label, describedBy, onRun, onChange }) {
  const runKey = { key: "Mod-Enter", run: () => (onRun(), true), preventDefault: true };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        history(),
        drawSelection(),
        highlightSpecialChars(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        python(),
        // A Hebrew or Persian string or comment is its own bidi island: without this, the
        // code around it reorders (`print('سلام', 1/0)` would show as `print('1/0 ,'سلام)`).
        bidiIsolates(),
        syntaxHighlighting(materialHighlight),
        // Ours first: the default keymap binds Mod-Enter to "insert blank line".
        keymap.of([runKey, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        // tabindex: the content is focusable anyway (contenteditable); saying so lets checkers
        // see that the scrolling box around it can be reached by keyboard.
        EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": describedBy, tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  // Code reads left to right even on Hebrew and Persian pages.
  view.dom.setAttribute("dir", "ltr");
  return view;
}

/** Replaces the whole text (for Reset) as one undoable change. */
export function setEditorText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
