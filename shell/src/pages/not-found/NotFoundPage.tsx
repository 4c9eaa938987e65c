import { useLocation } from '@agency/shared/router';
import { NOT_FOUND_TEXT, notFoundPageMeta, typeset } from '@agency/shared';
import { usePageMeta } from '../../frame/page/page-render-context';
import { MessagePage } from '../../frame/page/MessagePage';

/** Any path the site does not have: answered 404 by the server, with a way home. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  usePageMeta(notFoundPageMeta(pathname), 404);
  return (
    <MessagePage
      code="404"
      title={NOT_FOUND_TEXT}
      text={typeset('Можливо, посилання застаріло або в адресі є помилка.')}
      link={{ to: '/', label: 'На головну' }}
    />
  );
}
