// keyboard.js — the page's keyboard shortcuts, turned into the controls' actions.
//
// Contract: installKeyboard({editor, editable, dispatch, actions}) listens on the document once:
// Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z or Ctrl+Y redo (editable pages), Ctrl/Cmd+F actions.find() (not inside the
// JSON box, which has its own search); single keys only when focus is not in a text field or a dialog:
// Delete/Backspace actions.deleteSelected(), Escape actions.stopConnect() and clears the selection,
// A actions.addOp(), C actions.toggleConnect() (editable pages), F actions.fit(), B actions.toggleBytes().
// E (open or close a group) is page/controls/large-graph.js's. isTyping(target) says whether a key goes to a
// text field. Browser-only; shown by tests/browser/page-fit-and-keyboard.test.mjs and page-edit.test.mjs.

export const isTyping = (t) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

export function installKeyboard({ editor, editable, dispatch, actions }) {
  document.addEventListener('keydown', (e) => {
    const mod = e.ctrlKey || e.metaKey;
    const inEditor = editor.hasFocus();
    if (mod && e.key.toLowerCase() === 'f' && !inEditor) {
      e.preventDefault();
      actions.find();
      return;
    }
    if (inEditor || isTyping(e.target) || document.querySelector('dialog[open]')) return;
    if (mod && e.key.toLowerCase() === 'z' && editable) {
      e.preventDefault();
      dispatch({ type: e.shiftKey ? 'redo' : 'undo' });
      return;
    }
    if (mod && e.key.toLowerCase() === 'y' && editable) {
      e.preventDefault();
      dispatch({ type: 'redo' });
      return;
    }
    if (mod || e.altKey) return;
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      actions.deleteSelected();
    } else if (e.key === 'Escape') {
      actions.stopConnect();
      dispatch({ type: 'select', target: null });
    } else if (e.key === 'a' && editable) {
      e.preventDefault();
      actions.addOp();
    } else if (e.key === 'c' && editable) actions.toggleConnect();
    else if (e.key === 'f') actions.fit();
    else if (e.key === 'b') actions.toggleBytes();
  });
}
