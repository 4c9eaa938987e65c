import { useEffect, useId, useState, type FormEvent } from 'react';
import { FEDERATION_REGISTRY, LOCAL_BUILD_PORTS, localBuildOrigin, REMOTE_OVERRIDE_HOURS, type RemoteOverrideBody, type RemoteOverrideState, type RemoteOverrideView } from '@agency/shared';
import { messageOf, staffGet, staffSend } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import override from './remote-override.module.css';

export interface RemoteOverrideFormProps {
  /** The remote (`blog`), one the member may act on. */
  app: string;
  /** Its kept releases to choose from, newest first. */
  releases: readonly { id: string; label: string }[];
}

type Source = 'release' | 'port';

/** What replaces the remote, as the status line says it. */
function targetText(view: RemoteOverrideView): string {
  return view.port !== null ? `збірка з ${localBuildOrigin(view.port)}` : `реліз ${view.release ?? ''}`;
}

/** This browser's override as the form says it: none, this app's (with until when), or another app's. */
function statusText(app: string, current: RemoteOverrideView | null): string {
  if (!current) return 'Зараз у цьому браузері нічого не підмінено.';
  if (current.app !== app) return `Зараз у цьому браузері підмінено інший модуль, ${current.app}: нова підміна замінить ту.`;
  return `Зараз у цьому браузері ${app} підмінено: ${targetText(current)}, до ${kyivDateTime(current.expiresAt)}.`;
}

/**
 * «Підміна в цьому браузері» for one remote on «Релізи»: the member points the remote of the live
 * site, for their own browser only, at a kept release or at a build their machine serves on
 * localhost, then opens the site (a banner there names the override and ends it too), or ends it
 * here. One override per browser: a new one replaces the last.
 */
export function RemoteOverrideForm({ app, releases }: RemoteOverrideFormProps) {
  const id = useId();
  const [current, setCurrent] = useState<RemoteOverrideView | null | undefined>(undefined);
  const [chosenSource, setSource] = useState<Source>('release');
  const [chosenRelease, setRelease] = useState('');
  // What is sent follows the list as it is now (it changes after a promote or a reload): a chosen
  // release no longer offered falls back to the first one, none at all to a local build.
  const source: Source = releases.length > 0 ? chosenSource : 'port';
  const release = releases.find((entry) => entry.id === chosenRelease)?.id ?? releases[0]?.id ?? '';
  const [port, setPort] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState<'set' | 'ended' | undefined>(undefined);

  useEffect(() => {
    let live = true;
    staffGet<RemoteOverrideState>('/releases/override').then(
      (state) => live && setCurrent(state?.override ?? null),
      (failure: unknown) => live && setError(messageOf(failure)),
    );
    return () => {
      live = false;
    };
  }, []);

  async function run(action: () => Promise<RemoteOverrideState>, outcome: 'set' | 'ended') {
    setBusy(true);
    setError('');
    setDone(undefined);
    try {
      setCurrent((await action()).override);
      setDone(outcome);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const body: RemoteOverrideBody = source === 'release' ? { release } : { port: Number(port) };
    void run(() => staffSend<RemoteOverrideState>('post', `/releases/${app}/override`, body), 'set');
  }

  const end = () => run(() => staffSend<RemoteOverrideState>('delete', `/releases/${app}/override`), 'ended');
  const mine = current?.app === app;
  // How a team serves its remote locally: its dev server (which allows CORS), on its own port.
  const dev = (FEDERATION_REGISTRY.remotes as Record<string, { folder: string; devPort: number } | undefined>)[app];
  const headingId = `${id}-heading`;
  const hintId = `${id}-hint`;
  const portHintId = `${id}-port-hint`;

  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby={headingId}>
      <h3 id={headingId}>Підміна {app} у цьому браузері</h3>
      <p id={hintId} className={styles.muted}>
        Лише у вашому браузері сайт завантажить {app} з іншої збірки: зі збереженого релізу або з вашого компʼютера. Інші відвідувачі й кеші сайту
        бачать звичайний сайт. Підміна діє до {REMOTE_OVERRIDE_HOURS} годин, доки ви не вийдете з неї чи з консолі; у браузері вона одна, нова
        замінює попередню.
      </p>
      {current === undefined && !error && <p role="status">Завантаження…</p>}
      {current !== undefined && <p>{statusText(app, current)}</p>}
      <ErrorAlert error={error} />
      <form className={styles.stack} onSubmit={submit} aria-labelledby={headingId} aria-describedby={hintId}>
        <fieldset className={`${styles.stack} ${override.choices}`}>
          <legend>Що завантажити замість {app}</legend>
          <label>
            <input type="radio" name={`${id}-source`} value="release" checked={source === 'release'} disabled={releases.length === 0} onChange={() => setSource('release')} />{' '}
            Збережений реліз
          </label>
          {source === 'release' && (
            <label className={styles.field}>
              Реліз
              <select required value={release} onChange={(event) => setRelease(event.target.value)}>
                {releases.map((kept) => (
                  <option key={kept.id} value={kept.id}>
                    {kept.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            <input type="radio" name={`${id}-source`} value="port" checked={source === 'port'} onChange={() => setSource('port')} /> Збірка з мого
            компʼютера
          </label>
          {source === 'port' && (
            <>
              <label className={styles.field}>
                Порт на localhost
                <input
                  type="number"
                  inputMode="numeric"
                  required
                  min={LOCAL_BUILD_PORTS.min}
                  max={LOCAL_BUILD_PORTS.max}
                  step={1}
                  value={port}
                  aria-describedby={portHintId}
                  onChange={(event) => setPort(event.target.value)}
                />
              </label>
              <p id={portHintId} className={styles.muted}>
                Від {LOCAL_BUILD_PORTS.min} до {LOCAL_BUILD_PORTS.max}. Браузер візьме mf-manifest.json з http://localhost на цьому порту, тож збірка
                має віддаватися звідти з дозволом CORS{dev && `, як-от npm run dev -w ${dev.folder} на порту ${dev.devPort}`}. Сервер сайту вашого
                компʼютера не бачить: {app} зʼявиться, коли сторінку домалює браузер.
              </p>
            </>
          )}
        </fieldset>
        <div className={styles.row}>
          <button type="submit" className={styles.button} disabled={busy}>
            Підмінити
          </button>
          {mine && (
            <button type="button" className={styles.secondary} disabled={busy} onClick={end}>
              Завершити підміну
            </button>
          )}
        </div>
      </form>
      {done === 'set' && mine && (
        <p role="status" className={styles.notice}>
          Підміну ввімкнено.{' '}
          <a href="/" target="_blank" rel="noopener">
            Відкрити сайт у новій вкладці
          </a>
        </p>
      )}
      {done === 'ended' && (
        <p role="status" className={styles.notice}>
          Підміну завершено: цей браузер знову бачить звичайний сайт.
        </p>
      )}
    </section>
  );
}
