import { useLocation, Link } from '@agency/shared/router';
import { NOT_FOUND_TEXT, notFoundPageMeta, typeset } from '@agency/shared';
import { usePageMeta } from '../page/page-render-context';
import styles from './NotFoundPage.module.css';

/** Any path the site does not have: answered 404 by the server, with a way home. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  usePageMeta(notFoundPageMeta(pathname), 404);
  return (
    <div className={styles.notFound}>
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 className={styles.title}>{NOT_FOUND_TEXT}</h1>
      <p className={styles.text}>{typeset('Можливо, посилання застаріло або в адресі є помилка.')}</p>
      <Link to="/" className={styles.home}>
        На головну
      </Link>
    </div>
  );
}
