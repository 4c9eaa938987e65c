import { useCallback, useEffect, useRef, useState } from 'react';
import { ARTICLE_EDITING, type ArticleConflict, type ArticleDetail, type ArticleFields, type ArticleSave } from '@agency/shared';
import type { AxiosError } from 'axios';
import { messageOf, staffSend, statusOf } from '../../shared/api/staff-api';

/** What the editor has on screen: the article's fields and its slug. */
export type DraftFields = ArticleFields & { slug: string };

export type SaveState =
  | { status: 'saved'; at: string }
  | { status: 'dirty' }
  | { status: 'saving' }
  /** No answer (or the server is down): the changes wait on this device and are sent again. */
  | { status: 'offline'; retryInSeconds: number }
  /** Another save came first: the person chooses whose text stays. */
  | { status: 'conflict'; current: ArticleDetail }
  /** Refused (a taken slug, a field too long): fixed by the person, then saved again. */
  | { status: 'refused'; message: string };

/** Unsaved changes kept in the browser, per article, until the server has them. */
interface KeptChanges {
  version: number;
  fields: DraftFields;
  at: string;
}

const keyOf = (id: number) => `agency-staff-article:${id}`;

export function readKept(id: number): KeptChanges | undefined {
  try {
    const raw = window.localStorage.getItem(keyOf(id));
    return raw ? (JSON.parse(raw) as KeptChanges) : undefined;
  } catch {
    return undefined;
  }
}

function keep(id: number, changes: KeptChanges | undefined): void {
  try {
    if (changes) window.localStorage.setItem(keyOf(id), JSON.stringify(changes));
    else window.localStorage.removeItem(keyOf(id));
  } catch {
    // Storage full or off: the changes are still on screen and in the next save.
  }
}

export function fieldsOf(article: ArticleDetail): DraftFields {
  const { slug, title, category, excerpt, author, cover, markdown } = article;
  return { slug, title, category, excerpt, author, cover, markdown };
}

const same = (a: DraftFields, b: DraftFields) => (Object.keys(a) as (keyof DraftFields)[]).every((key) => a[key] === b[key]);

/** Waits between tries while there is no connection: 2, 4, 8… seconds, at most 30. */
const retryDelay = (attempt: number) => Math.min(30, 2 ** attempt);

/**
 * A console article's working copy as the editor edits it. Every change is kept in the browser at
 * once and saved a few seconds after the last keystroke (an autosave); a save that gets no answer
 * is tried again with growing pauses, so a keystroke is never lost to the network. A save the
 * server refuses because another came first stops the autosave until the person decides.
 */
export function useArticleDraft(article: ArticleDetail, onSaved: (article: ArticleDetail) => void) {
  const [fields, setFields] = useState<DraftFields>(() => fieldsOf(article));
  const [saveState, setSaveState] = useState<SaveState>({ status: 'saved', at: article.updatedAt });
  const version = useRef(article.version);
  const latest = useRef(fields);
  latest.current = fields;
  const saved = useRef(fieldsOf(article));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const attempt = useRef(0);
  const inFlight = useRef(false);
  const blocked = useRef(false);

  const save = useCallback(
    async (autosave: boolean): Promise<void> => {
      clearTimeout(timer.current);
      if (inFlight.current || blocked.current) return;
      const sending = latest.current;
      if (same(sending, saved.current)) {
        setSaveState((state) => (state.status === 'saved' ? state : { status: 'saved', at: new Date().toISOString() }));
        return;
      }
      inFlight.current = true;
      setSaveState({ status: 'saving' });
      const body: ArticleSave = { version: version.current, autosave, ...sending };
      try {
        const answer = await staffSend<ArticleDetail>('put', `/articles/${article.id}`, body);
        attempt.current = 0;
        version.current = answer.version;
        saved.current = sending;
        onSaved(answer);
        if (same(latest.current, sending)) {
          keep(article.id, undefined);
          setSaveState({ status: 'saved', at: answer.updatedAt });
        } else {
          setSaveState({ status: 'dirty' });
          timer.current = setTimeout(() => void save(true), ARTICLE_EDITING.autosaveSeconds * 1000);
        }
      } catch (error) {
        const status = statusOf(error);
        const code = (error as AxiosError<ArticleConflict>).response?.data?.error?.code;
        if (status === 409 && code === 'ARTICLE_CHANGED') {
          blocked.current = true;
          setSaveState({ status: 'conflict', current: (error as AxiosError<ArticleConflict>).response!.data.current });
        } else if (status === 0 || status >= 500 || status === 429) {
          const wait = retryDelay(++attempt.current);
          setSaveState({ status: 'offline', retryInSeconds: wait });
          timer.current = setTimeout(() => void save(true), wait * 1000);
        } else {
          setSaveState({ status: 'refused', message: messageOf(error) });
        }
      } finally {
        inFlight.current = false;
      }
    },
    [article.id, onSaved],
  );

  const change = useCallback(
    (changes: Partial<DraftFields>) => {
      setFields((previous) => {
        const next = { ...previous, ...changes };
        latest.current = next;
        keep(article.id, { version: version.current, fields: next, at: new Date().toISOString() });
        return next;
      });
      if (blocked.current) return;
      setSaveState((state) => (state.status === 'offline' ? state : { status: 'dirty' }));
      clearTimeout(timer.current);
      if (attempt.current === 0) timer.current = setTimeout(() => void save(true), ARTICLE_EDITING.autosaveSeconds * 1000);
    },
    [article.id, save],
  );

  /** After a conflict: take the other person's text (mine is dropped) … */
  const takeTheirs = useCallback((current: ArticleDetail) => {
    blocked.current = false;
    version.current = current.version;
    saved.current = fieldsOf(current);
    latest.current = fieldsOf(current);
    setFields(fieldsOf(current));
    keep(article.id, undefined);
    onSaved(current);
    setSaveState({ status: 'saved', at: current.updatedAt });
  }, [article.id, onSaved]);

  /** … or save mine over it, knowingly (theirs stays in the history). */
  const keepMine = useCallback((current: ArticleDetail) => {
    blocked.current = false;
    version.current = current.version;
    saved.current = fieldsOf(current);
    void save(false);
  }, [save]);

  /** Something else moved the article (publishing, a restore): its version and text are now these. */
  const replaced = useCallback((current: ArticleDetail) => {
    version.current = current.version;
    saved.current = fieldsOf(current);
    latest.current = fieldsOf(current);
    setFields(fieldsOf(current));
    keep(article.id, undefined);
    setSaveState({ status: 'saved', at: current.updatedAt });
  }, [article.id]);

  // Back online: a waiting save goes at once.
  useEffect(() => {
    const online = () => {
      if (attempt.current > 0) void save(true);
    };
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      clearTimeout(timer.current);
    };
  }, [save]);

  return { fields, change, save, saveState, takeTheirs, keepMine, replaced, version: () => version.current };
}
