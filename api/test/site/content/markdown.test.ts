import fs from 'node:fs';
import path from 'node:path';
import { APOSTROPHE } from '@agency/shared';
import { articleFiles } from '../../../src/site/content/content-sync';
import { splitFrontMatter } from '../../../src/site/content/front-matter';
import { renderArticle } from '../../../src/site/content/markdown';
import { REPO_CONTENT_DIR } from '../../helpers/app';

// Articles rendered from Markdown get the site's typography in their text and nowhere else.
const NB = '\u00a0';

/** The text of the HTML with its tags dropped (the article's text nodes, still escaped). */
const textOf = (html: string) => html.replace(/<[^>]*>/g, '');

describe('renderArticle typography', () => {
  it('uses the one apostrophe, «» quotes and no-break spaces in the text', () => {
    const html = renderArticle(`Кав'ярня "Зерно" — місце, де я п’ю каву і працюю.\n`);
    expect(html).toBe(`<p>Кав${APOSTROPHE}ярня «Зерно»${NB}— місце, де я${NB}п${APOSTROPHE}ю каву і${NB}працюю.</p>`);
  });

  it('typesets headings, list items, emphasis, links and table cells', () => {
    const html = renderArticle(
      [
        "## П'ять звітів і висновки",
        '',
        "- **Експертиза** — поради й відповіді, а також [розбір у статті](https://example.com/it's)",
        '',
        '| Показник | Значення |',
        '|---|---|',
        '| з "лапками" | 5 |',
        '',
      ].join('\n'),
    );
    expect(html).toContain(`<h2>Пʼять звітів і${NB}висновки</h2>`);
    expect(html).toContain(`<strong>Експертиза</strong>${NB}— поради й${NB}відповіді, а${NB}також <a href="https://example.com/it's" rel="noopener noreferrer">розбір у${NB}статті</a>`);
    expect(html).toContain(`<td>з${NB}«лапками»</td>`);
  });

  it('keeps a one-letter word at the end of a source line on the next word', () => {
    expect(renderArticle('Ми працюємо з\nклієнтами у\nЛьвові.')).toBe(`<p>Ми працюємо з${NB}клієнтами у${NB}Львові.</p>`);
  });

  it('leaves code, bare URLs, attributes and escaped characters as written', () => {
    const html = renderArticle(
      [
        'Текст із `коду і "лапок" та п\'яти` і \\"екранованими\\" лапками, https://example.com/it\'s а далі.',
        '',
        '```js',
        'const hint = "в коді — п\'ять";',
        '```',
        '',
        '    відступ і "код" — п\'ять',
        '',
        '![Фото і "підпис"](https://example.com/a.png)',
        '',
      ].join('\n'),
    );
    expect(html).toContain(`<code>коду і "лапок" та п'яти</code> і${NB}"екранованими" лапками`);
    expect(html).toContain(`>https://example.com/it's</a> а${NB}далі.`);
    expect(html).toContain('<pre><code>const hint = "в коді — п\'ять";\n</code></pre>');
    expect(html).toContain('<pre><code>відступ і "код" — п\'ять\n</code></pre>');
    expect(html).toContain('alt="Фото і &quot;підпис&quot;"');
  });

  it("publishes the repo's articles with the one apostrophe and «» only (outside code)", () => {
    for (const file of articleFiles(REPO_CONTENT_DIR)) {
      const { body } = splitFrontMatter(fs.readFileSync(path.join(REPO_CONTENT_DIR, file), 'utf8'));
      const html = renderArticle(body).replace(/<pre>[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, '');
      // An unpaired or escaped quote, or an apostrophe next to a non-letter, would show up here.
      expect({ file, stray: textOf(html).match(/['’"“”]|&quot;|&#39;/g) }).toEqual({ file, stray: null });
      expect(textOf(html)).toContain(NB);
    }
  });
});
