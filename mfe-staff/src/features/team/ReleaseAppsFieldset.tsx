import { APP_NAMES } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';

/** «Застосунки»: which apps a release manager may change the releases of, one checkbox each. */
export function ReleaseAppsFieldset({ apps, onChange }: { apps: readonly string[]; onChange: (apps: string[]) => void }) {
  const toggle = (app: string) => onChange(APP_NAMES.filter((each) => (each === app ? !apps.includes(app) : apps.includes(each))));
  return (
    <fieldset className={styles.row}>
      <legend>Застосунки</legend>
      {APP_NAMES.map((app) => (
        <label key={app}>
          <input type="checkbox" checked={apps.includes(app)} onChange={() => toggle(app)} /> {app}
        </label>
      ))}
    </fieldset>
  );
}
