/**
 * What a researcher does to a first screen the host rendered into the page (ssr/first-screen.tsx)
 * before React has taken it over: nothing of it is lost (issue 16).
 *
 * From the moment the entry runs (main.tsx) until the taken-over window has committed (app/start.tsx),
 * a click on a button and a form's submission are held (their default action and React's handling
 * both stopped, so a submit button cannot post the form and nothing is handled twice) and replayed, in
 * order, once React is in charge. Typing and choosing need no holding: the browser keeps what was typed
 * in the fields (even before the entry has run), and React, taking a field over, keeps its text but not its state; so each field whose
 * text differs from what the host rendered is told to React as the change it was (React's own `input`
 * and `change` events), before the held clicks are replayed. A link needs nothing either: it changes
 * the address's hash, which the window follows.
 */

/** Set on the root while presses are held (and after): until then the rendered buttons take none (styles.css). */
const HELD_ATTRIBUTE = 'data-input-held';

/** A held action, replayed once React has taken over. */
type Held = { kind: 'click'; target: HTMLElement } | { kind: 'submit'; form: HTMLFormElement };

export interface EarlyInput {
  /** React has taken the page over: fields' text told to it, then the held clicks and submissions replayed. */
  replay(): void;
  /** The page's screen is not taken over (React draws another): stop holding, forget what was held. */
  release(): void;
}

/** The native value setter, which React's own (on each field it tracks) does not see. */
const nativeSetter = (el: HTMLInputElement | HTMLTextAreaElement) =>
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el) as object, 'value')?.set;

/**
 * Tells React that a field's text changed from what was rendered: the text is set back to the rendered
 * value through the field's own setter (React's record of it), then to the typed text through the
 * native one, and an `input` event makes React read the difference as a change.
 */
const tellTyped = (el: HTMLInputElement | HTMLTextAreaElement) => {
  const typed = el.value;
  if (typed === el.defaultValue) return;
  el.value = el.defaultValue;
  nativeSetter(el)?.call(el, typed);
  el.dispatchEvent(new Event('input', { bubbles: true }));
};

const tellChosen = (el: HTMLSelectElement) => {
  if ([...el.options].some((o) => o.selected !== o.defaultSelected))
    el.dispatchEvent(new Event('change', { bubbles: true }));
};

const TEXT_LIKE = new Set(['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'hidden']);

export const holdEarlyInput = (root: HTMLElement): EarlyInput => {
  const held: Held[] = [];
  const onClick = (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target.closest('button') : null;
    if (!target || !root.contains(target)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    held.push({ kind: 'click', target });
  };
  const onSubmit = (e: SubmitEvent) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !root.contains(form)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    held.push({ kind: 'submit', form });
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  // From now on a press is held: the page's buttons take presses (styles.css).
  root.setAttribute(HELD_ATTRIBUTE, '');
  const stop = () => {
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('submit', onSubmit, true);
  };
  let done = false;
  return {
    replay() {
      if (done) return;
      done = true;
      stop();
      // A task after React's commit (events dispatched from inside its commit are not handled), the
      // fields' text; a task later, once React has applied it, the clicks, which then see that state.
      setTimeout(() => {
        for (const el of root.querySelectorAll('input, textarea, select')) {
          if (el instanceof HTMLSelectElement) tellChosen(el);
          else if (el instanceof HTMLTextAreaElement) tellTyped(el);
          else if (el instanceof HTMLInputElement && !TEXT_LIKE.has(el.type)) tellTyped(el);
        }
        setTimeout(() => {
          for (const h of held) {
            if (h.kind === 'click' && h.target.isConnected) h.target.click();
            if (h.kind === 'submit' && h.form.isConnected) h.form.requestSubmit();
          }
        }, 0);
      }, 0);
    },
    release() {
      done = true;
      stop();
    },
  };
};
