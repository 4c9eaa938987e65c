import { fireEvent } from '@testing-library/dom';

type Module = typeof import('./first-visitor-action');

/** A fresh copy of the module: it remembers the first action for the page's lifetime. */
async function freshModule(): Promise<Module> {
  let module: Module | undefined;
  await jest.isolateModulesAsync(async () => {
    module = await import('./first-visitor-action');
  });
  return module!;
}

async function isSettled(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

describe('afterFirstVisitorAction', () => {
  it.each([
    ['a tap or click', (target: Element) => fireEvent.pointerDown(target)],
    ['a key press', (target: Element) => fireEvent.keyDown(target, { key: 'Tab' })],
    ['a click from assistive technology, with no pointer', (target: Element) => fireEvent.click(target)],
  ])('resolves at %s, not before', async (_action, act) => {
    const { afterFirstVisitorAction } = await freshModule();
    const button = document.body.appendChild(document.createElement('button'));
    const acted = afterFirstVisitorAction();
    fireEvent.scroll(window);
    fireEvent.mouseMove(button);
    // The page moving focus itself, as a post does with its heading.
    button.focus();
    fireEvent.focusIn(button);
    await expect(isSettled(acted)).resolves.toBe(false);

    act(button);
    await expect(isSettled(acted)).resolves.toBe(true);
    button.remove();
  });

  it('answers every caller with the same first action', async () => {
    const { afterFirstVisitorAction } = await freshModule();
    const first = afterFirstVisitorAction();
    fireEvent.pointerDown(document.body);
    await first;
    await expect(isSettled(afterFirstVisitorAction())).resolves.toBe(true);
  });
});
