/**
 * @jest-environment node
 */
import { pageRenderUrl, POST_LOADING_TEXT } from '@agency/shared';
import { renderPage } from './server';

// The API renders and caches each page under pageRenderUrl(address): the frame must not read
// anything of the address that this drops, or visitors would get another address's markup.
const ADDRESSES = [
  '/?utm_source=facebook&utm_medium=cpc&fbclid=IwAR0abc',
  '/?position=smm-manager',
  '/blog?utm_campaign=spring&category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2&gclid=1',
  '/blog?page=1&ref=telegram',
  '/blog/3?utm_source=newsletter',
  '/privacy?from=footer',
  '/no/such/page?x=1',
];

describe('the shell’s server render', () => {
  it.each(ADDRESSES)('renders %s as it renders its pageRenderUrl', (address) => {
    const canonical = pageRenderUrl(address);
    expect(canonical).not.toBe(address);
    expect(renderPage(address, {})).toEqual(renderPage(canonical, {}));
  });

  it('renders the listing’s category and page, which pageRenderUrl keeps', () => {
    const casesSecondPage = renderPage(pageRenderUrl('/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2&utm_source=x'), {});
    expect(casesSecondPage.meta?.path).toBe('/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2');
    expect(casesSecondPage.slots).toEqual([{ id: 'blog/BlogListPage', props: { category: 'Кейси', page: 2 } }]);
  });

  it('names every slot of the home page, those rendered only in the browser as they near the viewport marked so', () => {
    const { slots } = renderPage('/', {});
    const lazy = slots.filter((slot) => slot.whenVisible).map((slot) => slot.id);
    expect(lazy).toEqual(expect.arrayContaining(['blog/BlogTeaser', 'forms/ContactForm', 'forms/JobApplicationForm']));
    expect(slots.filter((slot) => !slot.whenVisible).map((slot) => slot.id)).toContain('home/Hero');
  });

  it('sends the placeholder of a slot it has no markup for as settled markup, never as a boundary it failed on', () => {
    // A suspended boundary would have hydration report the slot as redrawn, an error, each time
    // the server leaves a slot to the browser (its data late, its remote's bundle failing).
    const { html } = renderPage('/blog/3', {});
    expect(html).toContain(`>${POST_LOADING_TEXT}</p>`);
    expect(html).not.toContain('<!--$!');
  });

  it('renders /staff pages as the console’s slot alone: no public header or footer, not indexed', () => {
    for (const address of ['/staff', '/staff/login', '/staff/leads/12']) {
      const page = renderPage(address, {});
      expect(page.slots).toEqual([{ id: 'staff/StaffConsole', props: {}, whenVisible: true }]);
      // Left to the browser without a suspended boundary, which hydration would report as redrawn.
      expect(page.html).not.toContain('<!--$!');
      expect(page.status).toBe(200);
      expect(page.meta).toMatchObject({ noindex: true });
      expect(page.html).not.toContain('Перейти до основного вмісту');
    }
    expect(renderPage('/', {}).slots.map((slot) => slot.id)).not.toContain('staff/StaffConsole');
  });
});
