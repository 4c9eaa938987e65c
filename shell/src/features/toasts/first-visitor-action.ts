// What counts as the visitor acting on the page: a tap or click, a key press, or focus moving
// into the page (tabbing to a field also counts).
const VISITOR_ACTIONS = ['pointerdown', 'keydown', 'focusin'] as const;

/** Resolves at the next tap, click, key press or focus on the page. */
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

/** Resolves at the first tap, click, key press or focus on the page after it is first asked for. */
export function afterFirstVisitorAction(): Promise<void> {
  firstAction ??= nextVisitorAction();
  return firstAction;
}
