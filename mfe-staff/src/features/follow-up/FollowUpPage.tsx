import styles from '../../shared/ui/console.module.css';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { FollowUpSettingsForm } from './FollowUpSettingsForm';
import { LeadRoutingTable } from './LeadRoutingTable';

/**
 * `/staff/follow-up` (admins): the work after a lead arrives, changed without a deploy. The
 * response target and the e-mail each visitor gets (one version-checked save), and who takes
 * which leads in turn (a save per member).
 */
export function FollowUpPage() {
  useDocumentTitle('Робота із заявками');
  return (
    <div className={styles.stack}>
      <h1>Робота із заявками</h1>
      <p className={styles.muted}>
        Що відвідувач отримує листом, щойно його заявку збережено, скільки робочого часу команда має на першу відповідь і хто які заявки бере.
      </p>
      <FollowUpSettingsForm />
      <LeadRoutingTable />
    </div>
  );
}
