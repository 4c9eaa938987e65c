import { useEffect, useState } from 'react';
import { ARTICLE_REVISION_KIND_LABELS, type ArticleDetail, type ArticleRevision, type ArticleRevisionSummary } from '@agency/shared';
import { diffLines, diffWords } from 'diff';
import { messageOf, staffGet, staffSend } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import articleStyles from './articles.module.css';

const FIELD_LABELS: Record<string, string> = { title: 'Назва', slug: 'Адреса', category: 'Рубрика', author: 'Автор', excerpt: 'Опис', cover: 'Обкладинка', markdown: 'Текст' };

/** What changed from `older` to `newer`, field by field: removed text struck through, added text marked. */
function RevisionDiff({ older, newer }: { older: ArticleRevision; newer: ArticleRevision }) {
  const changed = Object.keys(FIELD_LABELS).filter((field) => older[field as keyof ArticleRevision] !== newer[field as keyof ArticleRevision]);
  if (changed.length === 0) return <p>Текст цих версій однаковий.</p>;
  return (
    <dl className={articleStyles.diff} data-testid="revision-diff">
      {changed.map((field) => {
        const before = String(older[field as keyof ArticleRevision]);
        const after = String(newer[field as keyof ArticleRevision]);
        const parts = field === 'markdown' ? diffLines(before, after) : diffWords(before, after);
        return (
          <div key={field}>
            <dt>{FIELD_LABELS[field]}</dt>
            <dd className={articleStyles.diffText}>
              {parts.map((part, index) =>
                part.added ? (
                  <ins key={index}>{part.value}</ins>
                ) : part.removed ? (
                  <del key={index}>{part.value}</del>
                ) : (
                  <span key={index}>{part.value}</span>
                ),
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * Every save of the article, who made it and when; two chosen revisions compared, and any one
 * brought back as a new revision (nothing is ever lost by restoring).
 */
export function RevisionsPanel({ articleId, version, onRestored }: { articleId: number; version: () => number; onRestored: (article: ArticleDetail) => void }) {
  const [revisions, setRevisions] = useState<ArticleRevisionSummary[]>([]);
  const [chosen, setChosen] = useState<number[]>([]);
  const [compared, setCompared] = useState<[ArticleRevision, ArticleRevision] | undefined>(undefined);
  const [error, setError] = useState('');

  useEffect(() => {
    staffGet<ArticleRevisionSummary[]>(`/articles/${articleId}/revisions`).then(setRevisions, (failure: unknown) => setError(messageOf(failure)));
  }, [articleId]);

  const toggle = (id: number) => setChosen((current) => (current.includes(id) ? current.filter((one) => one !== id) : [...current, id].slice(-2)));

  const compare = async () => {
    setError('');
    try {
      const [a, b] = await Promise.all(chosen.map((id) => staffGet<ArticleRevision>(`/articles/${articleId}/revisions/${id}`)));
      setCompared(a!.id < b!.id ? [a!, b!] : [b!, a!]);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const restore = async (revisionId: number) => {
    setError('');
    try {
      onRestored(await staffSend<ArticleDetail>('post', `/articles/${articleId}/revisions/${revisionId}/restore`, { version: version() }));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <section className={styles.panel} aria-labelledby="revisions">
      <h2 id="revisions">Історія змін</h2>
      <ErrorAlert error={error} />
      <p className={styles.muted}>Позначте дві версії, щоб порівняти їх.</p>
      <ul className={articleStyles.revisions}>
        {revisions.map((revision) => (
          <li key={revision.id}>
            <label>
              <input type="checkbox" checked={chosen.includes(revision.id)} onChange={() => toggle(revision.id)} />
              {kyivDateTime(revision.at)} · {revision.actor} · {ARTICLE_REVISION_KIND_LABELS[revision.kind]}
            </label>{' '}
            <button type="button" className={styles.link} onClick={() => void restore(revision.id)} aria-label={`Відновити версію від ${kyivDateTime(revision.at)}`}>
              Відновити
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className={styles.secondary} disabled={chosen.length !== 2} onClick={() => void compare()}>
        Порівняти
      </button>
      {compared && <RevisionDiff older={compared[0]} newer={compared[1]} />}
    </section>
  );
}
