// What counts as the visitor acting on the page: a tap, a key press, or a click with no pointer
// (assistive technology activates controls that way). Focus does not count: pages move it
// themselves (a post focuses its heading), and tabbing to a field starts with a key press.
const VISITOR_ACTIONS = ['pointerdown', 'keydown', 'click'] as const;

/** Resolves at the next tap, key press or click on the page. */
export function nextVisitorAction(): Promise<void> {
  return new Promise<void>((resolve) => {
    const acted = () => {
      for (const type of VISITOR_ACTIONS) window.removeEventListener(type, acted, true);
      resolve();
    };
    for (const type of VISITOR_ACTIONS) window.addEventListener(type, acted, { capture: true, passive: true });
  });
}

let firstAction: Promise<void> | undefined;

/** Resolves at the first tap, key press or click on the page after it is first asked for. */
export function afterFirstVisitorAction(): Promise<void> {
  firstAction ??= nextVisitorAction();
  return firstAction;
}
