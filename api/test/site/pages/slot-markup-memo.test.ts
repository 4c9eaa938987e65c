import type { ServerData } from '@agency/shared';
import { SlotMarkupMemo } from '../../../src/site/pages/slot-markup-memo';

const ROOMY = { maxBytes: 1024 * 1024, maxEntries: 100 };

/** What a render reads: the bundle, its build's folder, the module, its props and its data. */
type Inputs = [object, string, string, object, ServerData];

/** A render that says which call of it made the markup. */
function counting() {
  let calls = 0;
  return { render: () => ({ html: `<p>render ${(calls += 1)}</p>` }), calls: () => calls };
}

describe('slots’ markup kept by what it was rendered from', () => {
  const bundle = {};
  const services = { '/services': { status: 200, body: [{ id: 1 }] } };

  it('renders a slot once for the same bundle, module, props and data', () => {
    const memo = new SlotMarkupMemo(ROOMY);
    const { render, calls } = counting();
    const first = memo.render(bundle, '/builds/home/r1', 'Services', {}, services, render);
    const again = memo.render(bundle, '/builds/home/r1', 'Services', {}, structuredClone(services), render);
    expect([first, again, calls()]).toEqual([{ html: '<p>render 1</p>' }, { html: '<p>render 1</p>' }, 1]);
  });

  it.each<[string, () => Inputs]>([
    ['other data', () => [bundle, '/builds/home/r1', 'Services', {}, { '/services': { status: 200, body: [{ id: 2 }] } }]],
    ['other props', () => [bundle, '/builds/home/r1', 'Services', { path: '/x' }, services]],
    ['another module', () => [bundle, '/builds/home/r1', 'Team', {}, services]],
    ['another release’s build', () => [bundle, '/builds/home/r2', 'Services', {}, services]],
    ['the same folder rebuilt (another bundle loaded)', () => [{}, '/builds/home/r1', 'Services', {}, services]],
  ])('renders again for %s', (_name, inputs) => {
    const memo = new SlotMarkupMemo(ROOMY);
    const { render, calls } = counting();
    memo.render(bundle, '/builds/home/r1', 'Services', {}, services, render);
    expect(memo.render(...inputs(), render)).toEqual({ html: '<p>render 2</p>' });
    expect(calls()).toBe(2);
  });

  it('keeps nothing with no memory, and drops the least recently used past its bound', () => {
    const none = new SlotMarkupMemo({ maxBytes: 0, maxEntries: 100 });
    const once = counting();
    none.render(bundle, '/d', 'A', {}, {}, once.render);
    none.render(bundle, '/d', 'A', {}, {}, once.render);
    expect([once.calls(), none.size.entries]).toEqual([2, 0]);

    const two = new SlotMarkupMemo({ maxBytes: 1024 * 1024, maxEntries: 2 });
    const { render, calls } = counting();
    for (const module of ['A', 'B', 'A', 'C']) two.render(bundle, '/d', module, {}, {}, render);
    expect(calls()).toBe(3);
    two.render(bundle, '/d', 'A', {}, {}, render);
    two.render(bundle, '/d', 'B', {}, {}, render);
    expect([calls(), two.size.entries]).toEqual([4, 2]);
  });
});
