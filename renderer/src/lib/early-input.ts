/**
 * What a researcher does to a first screen the host rendered into the page (ssr/first-screen.tsx)
 * before React has taken it over: nothing of it is lost.
 *
 * From the moment the entry runs (main.tsx) until React has taken over the screen (app/start.tsx,
 * App.tsx's `Mounted`), a click on a button and a form's submission are held (their default action and
 * React's handling both stopped, so a submit button cannot post the form and nothing is handled twice)
 * and replayed, in order, once React is in charge. Typing and choosing need no holding: the browser
 * keeps what was typed in the fields (even before the entry has run), and React, taking a field over,
 * keeps its text but not in its state; so each field whose text differs from what the host rendered is
 * told to React as the change it was (React's own `input` and `change` events; a select's choice is
 * noted as the entry starts and on each change, since React sets a select back to its state when it
 * takes it over), before the held clicks are replayed. A link needs nothing: it changes the address's
 * hash, which the window follows. Before the entry has run no script can act at all (the page allows
 * none inline): until then the rendered buttons take no presses (styles.css).
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
 * Tells React that a field's text changed from what was rendered: the text is set to the rendered
 * value through the field's own setter (React's record of it), then to the typed text through the
 * native one, and an `input` event makes React read the difference as a change.
 */
const tellTyped = (el: HTMLInputElement | HTMLTextAreaElement, rendered: string, typed: string) => {
  el.value = rendered;
  nativeSetter(el)?.call(el, typed);
  el.dispatchEvent(new Event('input', { bubbles: true }));
};

const differs = (el: HTMLSelectElement) => [...el.options].some((o) => o.selected !== o.defaultSelected);

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
  // An option chosen: React sets a select it takes over back to its state's value, so the choice is
  // noted (those made before the entry ran, then each change) and chosen again once React has it.
  const chosen = new Map<HTMLSelectElement, string>();
  for (const el of root.querySelectorAll('select')) if (differs(el)) chosen.set(el, el.value);
  const onChange = (e: Event) => {
    if (e.target instanceof HTMLSelectElement && root.contains(e.target))
      chosen.set(e.target, e.target.value);
  };
  // Text typed: noted too (before the entry ran, then each input), not only read when replaying. React
  // takes the page over a moment before the replay; a render of the form in that moment (another
  // field changed) sets the fields back to React's state, and the text read then would be gone.
  const typed = new Map<HTMLInputElement | HTMLTextAreaElement, string>();
  const isText = (el: EventTarget | null): el is HTMLInputElement | HTMLTextAreaElement =>
    el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !TEXT_LIKE.has(el.type));
  for (const el of root.querySelectorAll('input, textarea'))
    if (isText(el) && el.value !== el.defaultValue) typed.set(el, el.value);
  const onInput = (e: Event) => {
    if (isText(e.target) && root.contains(e.target)) typed.set(e.target, e.target.value);
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('change', onChange, true);
  document.addEventListener('input', onInput, true);
  // From now on a press is held: the page's buttons take presses (styles.css).
  root.setAttribute(HELD_ATTRIBUTE, '');
  const stop = () => {
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('submit', onSubmit, true);
    document.removeEventListener('change', onChange, true);
    document.removeEventListener('input', onInput, true);
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
        // Every field's text and choice first, then told one by one: telling one re-renders the form,
        // which sets the fields not yet told back to React's state.
        for (const el of root.querySelectorAll('input, textarea, select')) {
          if (el instanceof HTMLSelectElement) {
            if (!chosen.has(el) && differs(el)) chosen.set(el, el.value);
          } else if (isText(el) && !typed.has(el) && el.value !== el.defaultValue) typed.set(el, el.value);
        }
        for (const [el, text] of typed) if (el.isConnected) tellTyped(el, el.defaultValue, text);
        for (const [el, value] of chosen)
          if (el.isConnected) {
            el.value = value;
            el.dispatchEvent(new Event('change', { bubbles: true }));
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
