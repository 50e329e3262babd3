/** Small DOM helpers shared by the public page scripts (bundled into each one that uses them). */

/**
 * True the first time it is called for `name` on this page: document-wide listeners are
 * installed once even when a script runs again (a page's scripts re-run inside a dialog).
 */
export function firstTime(name: string): boolean {
  const root = document.documentElement;
  const flag = `data-${name}`;
  if (root.hasAttribute(flag)) return false;
  root.setAttribute(flag, "");
  return true;
}

/** The elements matching `selector` not yet set up, each marked as set up (data-ready). */
export function fresh<E extends Element>(selector: string): E[] {
  const found = Array.from(document.querySelectorAll<E>(`${selector}:not([data-ready])`));
  found.forEach((el) => el.setAttribute("data-ready", ""));
  return found;
}

/**
 * Runs `setup` now and again whenever new content arrives in the page (a dialog's page, the
 * "enhance" event that common.ts fires): fetched HTML is inserted without running its scripts,
 * so the page that hosts a dialog carries the scripts its dialogs need. `setup` works on
 * `fresh` elements, so running it again touches only the new ones.
 */
export function onEnhance(setup: () => void): void {
  setup();
  document.addEventListener(ENHANCE_EVENT, setup);
}

/** The event fired on the document after new content (a dialog's page) is inserted. */
export const ENHANCE_EVENT = "enhance";
