import { pageRenderUrl } from './server-rendering';

describe('pageRenderUrl', () => {
  it('keeps only the path of pages whose server render reads no query', () => {
    expect(pageRenderUrl('/')).toBe('/');
    expect(pageRenderUrl('/?utm_source=facebook&utm_campaign=spring&fbclid=IwAR0abc')).toBe('/');
    expect(pageRenderUrl('/?position=smm-manager')).toBe('/');
    expect(pageRenderUrl('/blog/3?gclid=xyz')).toBe('/blog/3');
    expect(pageRenderUrl('/no/such/page?x=1')).toBe('/no/such/page');
  });

  it('keeps the blog listing’s category and page, in their canonical form, and drops the rest', () => {
    expect(pageRenderUrl('/blog')).toBe('/blog');
    expect(pageRenderUrl('/blog?utm_source=telegram')).toBe('/blog');
    expect(pageRenderUrl('/blog?page=2&utm_medium=cpc&category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8')).toBe(
      '/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2',
    );
    expect(pageRenderUrl('/blog?category=Кейси')).toBe('/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8');
  });

  it('gives one address to every spelling of the same listing page', () => {
    // The first page and a page number that is no canonical integer both mean the first page.
    expect(pageRenderUrl('/blog?page=1')).toBe('/blog');
    expect(pageRenderUrl('/blog?page=02')).toBe('/blog');
    expect(pageRenderUrl('/blog?page=abc&category=')).toBe('/blog');
    expect(pageRenderUrl('/blog?category=+SEO+&page=3')).toBe('/blog?category=SEO&page=3');
  });
});
