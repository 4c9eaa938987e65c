import { useEffect, useState, type FormEvent } from 'react';
import { ARTICLE_STATE_LABELS, STAFF_PATHS, type ArticleDetail, type ArticleSummary } from '@agency/shared';
import { Link, useNavigate } from '@agency/shared/router';
import { messageOf, staffGet, staffSend } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';

/** An article's state as the list shows it: a scheduled one with its time. */
function stateText(article: ArticleSummary): string {
  const state = ARTICLE_STATE_LABELS[article.state];
  if (article.state === 'scheduled' && article.publishAt) return `${state} на ${kyivDateTime(article.publishAt)}`;
  return article.unpublishedChanges ? `${state}, є неопубліковані зміни` : state;
}

/**
 * `/staff/articles` («Статті», editors and admins): every article, the last changed first, found
 * by its title; a new one starts here from its title.
 */
export function ArticlesPage() {
  const navigate = useNavigate();
  const [articles, setArticles] = useState<ArticleSummary[] | undefined>(undefined);
  const [query, setQuery] = useState('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useDocumentTitle('Статті');

  useEffect(() => {
    const timer = setTimeout(() => {
      staffGet<ArticleSummary[]>('/articles', query.trim() ? { q: query.trim() } : undefined).then(setArticles, (failure: unknown) => setError(messageOf(failure)));
    }, query ? 300 : 0);
    return () => clearTimeout(timer);
  }, [query]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const article = await staffSend<ArticleDetail>('post', '/articles', { title: title.trim(), category: '', excerpt: '', author: '', cover: '', markdown: '' });
      navigate(`${STAFF_PATHS.articles}/${article.id}`);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Статті</h1>
      <form className={`${styles.panel} ${styles.row}`} onSubmit={(event) => void create(event)} aria-label="Нова стаття">
        <label className={styles.field}>
          Назва нової статті
          <input value={title} onChange={(event) => setTitle(event.target.value)} required maxLength={300} />
        </label>
        <button type="submit" className={styles.button} disabled={busy || title.trim() === ''}>
          Створити чернетку
        </button>
      </form>
      <ErrorAlert error={error} />
      <div className={styles.panel}>
        <label className={styles.field}>
          Пошук за назвою
          <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
        </label>
      </div>
      {articles === undefined ? (
        <p role="status">Завантаження…</p>
      ) : articles.length === 0 ? (
        <p>Статей за цим пошуком немає.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.stacked}`}>
            <thead>
              <tr>
                <th scope="col">Назва</th>
                <th scope="col">Стан</th>
                <th scope="col">Джерело</th>
                <th scope="col">Змінено</th>
              </tr>
            </thead>
            <tbody>
              {articles.map((article) => (
                <tr key={article.id}>
                  <td data-label="Назва">
                    <Link to={`${STAFF_PATHS.articles}/${article.id}`}>{article.title || 'Без назви'}</Link>
                  </td>
                  <td data-label="Стан">{stateText(article)}</td>
                  <td data-label="Джерело">{article.owner === 'files' ? 'Файл у репозиторії' : 'Консоль'}</td>
                  <td data-label="Змінено">
                    {kyivDateTime(article.updatedAt)}
                    {article.updatedBy && <span className={styles.muted}> · {article.updatedBy}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
