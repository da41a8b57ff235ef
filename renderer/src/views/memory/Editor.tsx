import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdownKeymap, markdownLanguage } from '@codemirror/lang-markdown';
import { LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { useReverieStore } from '../../store/useReverie.js';
import { resumeOrStartDraft } from './editor/editorDraft.js';
import { noteCompletionSource, noteNames, type NoteName } from './editor/noteCompletion.js';
import { VIEWPORT_HIGHLIGHT_CHARS, viewportMarkdownHighlighting } from './editor/viewportMarkdown.js';
import editorCss from './editor/editor.css?inline';

/**
 * The note editor: CodeMirror 6 with Markdown highlighting and `[[` completion of note names.
 * Loaded on first use (DocumentPane), so the editor's code is not in the main bundle.
 * The editor owns the text (an EditorDraft, attached to the memory slice, which outlives this view
 * so switching views keeps the text and its undo history); the store learns only that it changed.
 * Saving (button, Ctrl/Cmd+S in KeyboardLayer) and the conflict rules stay in the memory slice,
 * which reads the text from the draft when it needs it.
 *
 * With `readOnlyText` it shows that text read-only (a note too large to edit here): CodeMirror
 * draws only the lines in view, so even a 20 MB note scrolls.
 *
 * It lives in a shadow root: CodeMirror adds its own styles, and in a document it would add them
 * as a <style> element, which the window's Content-Security-Policy (style-src 'self') blocks; in
 * a shadow root they become adopted style sheets, which the policy allows. editor.css goes the same way.
 */
export function Editor({ path, readOnlyText }: { path: string; readOnlyText?: string }) {
  const store = useReverieStore();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const shadow = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(editorCss);
    shadow.adoptedStyleSheets = [sheet];
    const parent = document.createElement('div');
    parent.className = 'editor';
    shadow.replaceChildren(parent);
    let names: NoteName[] = [];
    let namesFor: unknown = null;
    const currentNames = (): readonly NoteName[] => {
      const files = store.getState().memory.files;
      if (files !== namesFor) {
        names = noteNames(files.filter((f) => f.path !== path).map((f) => f.path));
        namesFor = files;
      }
      return names;
    };
    const isReadOnly = readOnlyText !== undefined;
    const createState = (doc: string): EditorState =>
      EditorState.create({
        doc,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          closeBrackets(),
          search({ top: true }),
          highlightSelectionMatches(),
          doc.length >= VIEWPORT_HIGHLIGHT_CHARS ? viewportMarkdownHighlighting() : [new LanguageSupport(markdownLanguage), syntaxHighlighting(classHighlighter)],
          autocompletion({ override: [noteCompletionSource(currentNames)], icons: false }),
          keymap.of([...closeBracketsKeymap, ...completionKeymap, ...markdownKeymap, ...searchKeymap, ...historyKeymap, ...defaultKeymap, indentWithTab]),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of(
            isReadOnly ? { 'data-testid': 'read-only-view', 'aria-label': `${path}, read-only` } : { 'data-testid': 'editor', 'aria-label': `Edit ${path}`, spellcheck: 'true' },
          ),
          EditorState.readOnly.of(isReadOnly),
          EditorView.editable.of(!isReadOnly),
        ],
      });
    let editor: EditorView;
    if (isReadOnly) {
      editor = new EditorView({ parent, root: shadow, state: createState(readOnlyText) });
    } else {
      const draft = resumeOrStartDraft(store.getState().memory, path, createState, () => store.getState().memory.onDraftEdited());
      editor = new EditorView({
        parent,
        root: shadow,
        state: draft.state,
        dispatchTransactions: (transactions, target) => {
          target.update(transactions);
          draft.accept(target.state);
        },
      });
      editor.focus();
    }
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [store, path, readOnlyText]);

  return <div className="editor-host" data-testid="editor-host" ref={host} />;
}
