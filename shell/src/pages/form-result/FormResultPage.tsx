import { FORM_NOT_SENT_HINT, FORM_RESULTS, formResultPageMeta, readFormResult, typeset, type FormName, type FormOutcome } from '@agency/shared';
import { useParams } from '@agency/shared/router';
import { usePageMeta } from '../../frame/page/page-render-context';
import { MessagePage } from '../../frame/page/MessagePage';
import { NotFoundPage } from '../not-found/NotFoundPage';

/**
 * Where a form posted without a script lands: sent, or not (with the way back to the form). Any
 * other form or outcome in the address is a page the site does not have.
 */
export function FormResultPage() {
  const params = useParams();
  const result = readFormResult(params.form, params.outcome);
  return result ? <FormResult {...result} /> : <NotFoundPage />;
}

function FormResult({ form, outcome }: { form: FormName; outcome: FormOutcome }) {
  usePageMeta(formResultPageMeta(form, outcome));
  const texts = FORM_RESULTS[form];
  return outcome === 'sent' ? (
    <MessagePage title={texts.sent} link={{ to: '/', label: 'На головну' }} />
  ) : (
    <MessagePage title={texts.notSent} text={typeset(FORM_NOT_SENT_HINT)} link={{ to: texts.backTo, label: 'Повернутися до форми' }} />
  );
}
