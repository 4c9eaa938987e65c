import { lazy, Suspense, useCallback, useEffect, useId, useState } from 'react';
import { ARTICLE_STATE_LABELS, STAFF_PATHS, type ArticleDetail, type BlogPost, type StaffPreviewContent, type UploadedImage } from '@agency/shared';
import { slugFromTitle } from '@agency/shared/slug';
import { Link, useParams } from '@agency/shared/router';
import { messageOf, staffGet, staffSend, staffUpload } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { ImageDrop } from '../../shared/ui/ImageDrop';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { PreviewFrames } from '../../shared/ui/PreviewFrames';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { useLeaveWarning } from '../../shared/ui/use-leave-warning';
import articleStyles from './articles.module.css';
import { PublishingPanel } from './PublishingPanel';
import { RevisionsPanel } from './RevisionsPanel';
import { fieldsOf, readKept, useArticleDraft, type DraftFields, type SaveState } from './use-article-draft';

// The editor's code (and its styles) loads with this page only.
const MarkdownField = lazy(() => import('./MarkdownField'));

/** How long the preview waits after the last change before it is drawn again, in ms. */
const PREVIEW_DELAY_MS = 600;

function saveStateText(state: SaveState): string {
  switch (state.status) {
    case 'saved':
      return `Усі зміни збережено (${kyivDateTime(state.at)})`;
    case 'dirty':
      return 'Є незбережені зміни: збережу за кілька секунд';
    case 'saving':
      return 'Зберігаю…';
    case 'offline':
      return `Немає зʼєднання із сервером. Зміни збережено на цьому пристрої; спробую ще раз за ${state.retryInSeconds} с`;
    case 'conflict':
      return 'Не збережено: статтю змінив хтось інший';
    case 'refused':
      return `Не збережено: ${state.message}`;
  }
}

/** `/staff/articles/:id`: one article, loaded; a file's article until it is taken over, then the editor. */
export function ArticleEditorPage() {
  const { id } = useParams();
  const [article, setArticle] = useState<ArticleDetail | undefined>(undefined);
  const [error, setError] = useState('');
  useDocumentTitle(article ? `Стаття: ${article.title || 'без назви'}` : 'Стаття');

  useEffect(() => {
    staffGet<ArticleDetail>(`/articles/${id}`).then(setArticle, (failure: unknown) => setError(messageOf(failure)));
  }, [id]);

  const takeOver = async () => {
    setError('');
    try {
      setArticle(await staffSend<ArticleDetail>('post', `/articles/${id}/take-over`, {}));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  if (!article) return error ? <ErrorAlert error={error} /> : <p role="status">Завантаження…</p>;
  return (
    <>
      <p>
        <Link to={STAFF_PATHS.articles}>← Усі статті</Link>
      </p>
      {article.owner === 'files' ? (
        <section className={styles.panel} aria-labelledby="file-article">
          <h1 id="file-article">{article.title}</h1>
          <p className={styles.notice}>
            Цю статтю публікують з файлу в репозиторії, і сайт показує її такою, як у файлі. Щоб редагувати її тут, перенесіть її в консоль: відтоді файл більше не
            змінюватиме статтю, а синхронізація лишатиме її як є.
          </p>
          <ErrorAlert error={error} />
          <button type="button" className={styles.button} onClick={() => void takeOver()}>
            Перенести в консоль і редагувати
          </button>
        </section>
      ) : (
        <ArticleEditor key={article.id} article={article} />
      )}
    </>
  );
}

function ArticleEditor({ article: loaded }: { article: ArticleDetail }) {
  const [article, setArticle] = useState(loaded);
  const { fields, change, save, saveState, takeTheirs, keepMine, replaced, version } = useArticleDraft(loaded, setArticle);
  const [kept, setKept] = useState(() => {
    const changes = readKept(loaded.id);
    return changes && JSON.stringify(changes.fields) !== JSON.stringify(fieldsOf(loaded)) ? changes : undefined;
  });
  const [error, setError] = useState('');
  const [preview, setPreview] = useState<StaffPreviewContent | undefined>(undefined);
  const [revisionsKey, setRevisionsKey] = useState(0);
  const markdownId = useId();
  useLeaveWarning(saveState.status !== 'saved');

  // The preview draws what is on screen, a moment after the last change.
  useEffect(() => {
    const timer = setTimeout(() => {
      const { slug: _slug, ...shown } = fields;
      staffSend<BlogPost>('post', `/articles/${loaded.id}/preview`, shown).then(
        (post) => setPreview({ kind: 'article', post }),
        () => undefined,
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fields, loaded.id]);

  useEffect(() => {
    if (saveState.status === 'saved') setRevisionsKey((key) => key + 1);
  }, [saveState]);

  const onTitle = (title: string) => {
    // A slug still made from the title follows it until the article has been published.
    const follows = article.publishedAt === null && fields.slug === slugFromTitle(fields.title);
    const slug = slugFromTitle(title);
    change(follows && slug ? { title, slug } : { title });
  };

  const upload = useCallback(
    async (file: File, use: 'cover' | 'inline'): Promise<UploadedImage | undefined> => {
      setError('');
      try {
        return await staffUpload<UploadedImage>(`/articles/${loaded.id}/images?use=${use}`, file);
      } catch (failure) {
        setError(messageOf(failure));
        return undefined;
      }
    },
    [loaded.id],
  );

  const acted = (next: ArticleDetail) => {
    setArticle(next);
    replaced(next);
    setRevisionsKey((key) => key + 1);
  };

  const field = (name: keyof DraftFields, label: string, maxLength: number) => (
    <label className={styles.field}>
      {label}
      <input value={fields[name]} maxLength={maxLength} onChange={(event) => change({ [name]: event.target.value })} />
    </label>
  );

  return (
    <>
      <h1>{fields.title || 'Стаття без назви'}</h1>
      <p>
        <strong>{ARTICLE_STATE_LABELS[article.state]}</strong>
        {article.unpublishedChanges && ' · є зміни, яких відвідувачі ще не бачать'}
      </p>
      <p role="status" className={articleStyles.saveState} data-testid="save-state">
        {saveStateText(saveState)}
      </p>
      {saveState.status === 'conflict' && (
        <div role="alert" className={styles.notice}>
          <p>
            {saveState.current.updatedBy ?? 'Хтось інший'} зберіг цю статтю {kyivDateTime(saveState.current.updatedAt)}, поки ви її редагували. Ваші зміни не збережено, але
            вони на екрані й на цьому пристрої.
          </p>
          <div className={styles.row}>
            <button type="button" className={styles.secondary} onClick={() => takeTheirs(saveState.current)}>
              Взяти їхню версію
            </button>
            <button type="button" className={styles.button} onClick={() => keepMine(saveState.current)}>
              Зберегти мою поверх (їхня лишиться в історії)
            </button>
          </div>
        </div>
      )}
      {kept && (
        <div className={styles.notice}>
          <p>На цьому пристрої є незбережені зміни цієї статті від {kyivDateTime(kept.at)}.</p>
          <div className={styles.row}>
            <button
              type="button"
              className={styles.button}
              onClick={() => {
                change(kept.fields);
                setKept(undefined);
              }}
            >
              Відновити їх
            </button>
            <button type="button" className={styles.secondary} onClick={() => setKept(undefined)}>
              Відкинути
            </button>
          </div>
        </div>
      )}
      <ErrorAlert error={error} />
      <div className={articleStyles.layout}>
        <form
          className={`${styles.panel} ${styles.stack}`}
          aria-label="Стаття"
          onSubmit={(event) => {
            event.preventDefault();
            void save(false);
          }}
        >
          <label className={styles.field}>
            Назва
            <input value={fields.title} maxLength={300} onChange={(event) => onTitle(event.target.value)} required />
          </label>
          <label className={styles.field}>
            Адреса (slug): латинські літери, цифри, дефіси
            <input value={fields.slug} maxLength={200} pattern="[a-z0-9]+(-[a-z0-9]+)*" onChange={(event) => change({ slug: event.target.value })} required />
          </label>
          {field('category', 'Рубрика', 100)}
          {field('author', 'Автор', 200)}
          <label className={styles.field}>
            Короткий опис (для картки й пошуку)
            <textarea value={fields.excerpt} maxLength={500} rows={3} onChange={(event) => change({ excerpt: event.target.value })} />
          </label>
          <div className={styles.stack}>
            {fields.cover && <img src={fields.cover} alt="Обкладинка статті" className={articleStyles.cover} width={1200} height={630} />}
            <ImageDrop
              label={fields.cover ? 'Замінити обкладинку' : 'Обкладинка'}
              hint="JPEG, PNG чи WebP до 10 МіБ, щонайменше 600×315: перетягніть сюди або виберіть файл"
              onFile={(file) =>
                void upload(file, 'cover').then((image) => {
                  if (image) change({ cover: image.url });
                })
              }
            />
          </div>
          <Suspense fallback={<p role="status">Завантаження редактора…</p>}>
            <MarkdownField
              id={markdownId}
              label="Текст статті (Markdown)"
              value={fields.markdown}
              onChange={(markdown) => change({ markdown })}
              uploadImage={async (file) => {
                const image = await upload(file, 'inline');
                return image && `![${file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '')}](${image.url})`;
              }}
            />
          </Suspense>
          <div className={styles.row}>
            <button type="submit" className={styles.button} disabled={saveState.status === 'saving'}>
              Зберегти
            </button>
          </div>
        </form>
        <PublishingPanel article={article} saved={saveState.status === 'saved'} version={version} onChanged={acted} />
      </div>
      <section className={styles.panel} aria-labelledby="article-preview">
        <h2 id="article-preview">Попередній перегляд</h2>
        <p className={styles.muted}>Так статтю побачать відвідувачі: її малює блог сайту, тим самим кодом і стилями.</p>
        <PreviewFrames kind="article" content={preview} />
      </section>
      <RevisionsPanel key={revisionsKey} articleId={loaded.id} version={version} onRestored={acted} />
    </>
  );
}
