// The `focused` property of text inputs (UIResponder's first responder, issue 12): the
// server's becomeFirstResponder / resignFirstResponder / endEditing move the browser's
// focus. The renderer's own focus and blur listeners report the change as
// editingDidBegin / editingDidEnd, which the server does not send twice.

/** `renderer` with a `focused` property applied to its input (`el.bdInput` or `el`). */
export function withFocus(renderer) {
  return {
    ...renderer,
    props: {
      ...renderer.props,
      focused(el, v) {
        const input = el.bdInput ?? el;
        // The first value is the scene's, not a move: it never takes away a focus the page
        // gave (autofocus in attach mode, the user already typing).
        const first = !el.bdFocusApplied;
        el.bdFocusApplied = true;
        if (v === true) { if (document.activeElement !== input) input.focus(); }
        else if (!first && document.activeElement === input) input.blur();
      },
    },
  };
}
