import { Component, lazy, Suspense, useEffect, useState, useSyncExternalStore, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { remoteOfModule, SHOWN_IF_REMOTE_FAILS_ATTRIBUTE, type NoProps, type PropsOf, type RemoteModuleId, type SlotRequest } from '@agency/shared';
import { usePageRenderCollector, type PageRenderCollector } from '../page/page-render-context';
import { loadRemoteModule } from './load-remote-module';
import { whenNearViewport } from './near-viewport';
import { reportRemoteError } from './remote-error-reporting';
import { slotElementInPage, slotInPage } from './slot-in-page';
import { useNearViewport } from './use-near-viewport';
import styles from './remote-slot.module.css';

export const REMOTE_UNAVAILABLE_MESSAGE = 'Цей розділ тимчасово недоступний. Спробуйте оновити сторінку пізніше.';

function SlotWrapper({ id, release, children, html }: { id: RemoteModuleId; release: string; children?: ReactNode; html?: string }) {
  return (
    <div
      className={styles.slot}
      data-remote-module={id}
      data-remote-release={release}
      {...(html === undefined ? {} : { dangerouslySetInnerHTML: { __html: html } })}
    >
      {children}
    </div>
  );
}

const subscribeToNothing = () => () => undefined;

/**
 * In the browser, a slot the server sent its placeholder for: the placeholder again while React
 * adopts the page (the server's snapshot, so the markup matches), then the remote. A server
 * render that suspended instead would mark the slot as failed on the server, which hydration
 * reports as an error.
 */
function AfterHydration({ placeholder, children }: { placeholder: ReactNode; children: ReactNode }) {
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  return hydrated ? children : placeholder;
}

// Errors of loading a remote reach its boundary too, but the loader has reported them already
// (load_failure): the boundary reports only what a remote's component throws.
const loadErrors = new WeakSet<object>();

/** The module's component in its release's wrapper; a failed load is marked as reported. */
async function loadSlotComponent(id: RemoteModuleId): Promise<{ default: ComponentType<object> }> {
  try {
    const { component: Loaded, release } = await loadRemoteModule(id);
    // The wrapper tells support which release of the remote this slot shows; the server
    // wraps its markup the same way, so hydration adopts it.
    const WithRelease = (props: object) => (
      <SlotWrapper id={id} release={release}>
        <Loaded {...props} />
      </SlotWrapper>
    );
    return { default: WithRelease };
  } catch (error) {
    if (typeof error === 'object' && error !== null) loadErrors.add(error);
    throw error;
  }
}

// One lazy component per exposed module, so re-renders never refetch a remote. A failed one is
// forgotten, so the next time its slot mounts it is tried again.
const lazyComponents = new Map<RemoteModuleId, ComponentType<object>>();

function lazyRemote(id: RemoteModuleId): ComponentType<object> {
  let component = lazyComponents.get(id);
  if (!component) {
    component = lazy(() =>
      loadSlotComponent(id).catch((error: unknown) => {
        lazyComponents.delete(id);
        throw error;
      }),
    );
    lazyComponents.set(id, component);
  }
  return component;
}

// A slot the server sent markup for: React keeps the markup of a boundary whose content is not
// ready yet as it is while hydrating the rest of the page, so until the remote's code has arrived
// (for a lower section, until the visitor nears it and then its code) the server's markup stays
// on screen, in place, at its height; then React hydrates it where it is. A remote that cannot
// load leaves that markup.
const lazyServerMarkup = new Map<RemoteModuleId, ComponentType<object>>();

function lazyServerSlot(id: RemoteModuleId, whenVisible: boolean): ComponentType<object> {
  let component = lazyServerMarkup.get(id);
  if (!component) {
    component = lazy(async () => {
      // The wrapper has no box of its own (display: contents), so its parent's nearness is watched.
      const frame = whenVisible ? slotElementInPage(id)?.parentElement : undefined;
      if (frame) await whenNearViewport(frame);
      try {
        return await loadSlotComponent(id);
      } catch {
        lazyServerMarkup.delete(id);
        return { default: () => <ServerMarkupKept id={id} /> };
      }
    });
    lazyServerMarkup.set(id, component);
  }
  return component;
}

/**
 * The server's markup of a section whose remote could not load, adopted as it is: read from the
 * page while React still holds it, the same wrapper, so hydration changes nothing on screen. What
 * that markup holds for this case (a form's note that it still posts itself) is then shown.
 */
function ServerMarkupKept({ id }: { id: RemoteModuleId }) {
  const [sent] = useState(() => {
    const element = slotElementInPage(id);
    return { html: element?.innerHTML ?? '', release: element?.getAttribute('data-remote-release') ?? '' };
  });
  useEffect(() => {
    for (const note of slotElementInPage(id)?.querySelectorAll<HTMLElement>(`[${SHOWN_IF_REMOTE_FAILS_ATTRIBUTE}]`) ?? []) note.hidden = false;
  }, [id]);
  return <SlotWrapper id={id} release={sent.release} html={sent.html} />;
}

interface BoundaryProps {
  id: RemoteModuleId;
  message: string;
  children: ReactNode;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[federation] remote "${this.props.id}" failed to render`, error, info.componentStack);
    if (!loadErrors.has(error)) reportRemoteError('boundary', error, remoteOfModule(this.props.id));
  }

  override render(): ReactNode {
    if (this.state.failed) {
      return (
        <p className={styles.unavailable} role="status" data-remote-unavailable={this.props.id}>
          {this.props.message}
        </p>
      );
    }
    return this.props.children;
  }
}

/** Props a module takes, as the contract in @agency/shared names them; optional when it takes none. */
type ModuleProps<Id extends RemoteModuleId> = PropsOf<Id> extends NoProps ? { props?: NoProps } : { props: PropsOf<Id> };

type RemoteSlotProps<Id extends RemoteModuleId> = {
  /** `remote/Module`, e.g. `home/Hero`: only ids the registry exposes compile. */
  id: Id;
  /** Space kept while the remote loads, so nothing below it jumps. */
  minHeight?: string;
  loading?: ReactNode;
  message?: string;
  /** Below the first screen: the remote's code is fetched only when the slot nears the viewport. */
  whenVisible?: boolean;
} & ModuleProps<Id>;

/**
 * Renders one exposed remote module, isolated: its failure stays inside this slot. On the server
 * it records the slot and shows the remote's server markup when there is some; in the browser
 * React hydrates that markup once the remote has loaded (a lower section's once the visitor nears
 * it), leaving it on screen until then.
 */
export function RemoteSlot<Id extends RemoteModuleId>({
  id,
  props,
  minHeight,
  loading,
  message = REMOTE_UNAVAILABLE_MESSAGE,
  whenVisible = false,
}: RemoteSlotProps<Id>) {
  const collector = usePageRenderCollector();
  // Whether the server sent this slot's markup (read once, before React adopts the page).
  const [markupFromServer] = useState(() => slotInPage(id));
  const [nearRef, near] = useNearViewport(whenVisible && !collector && !markupFromServer);
  const placeholder =
    loading !== undefined && !whenVisible ? (
      loading
    ) : (
      // `data-remote-pending` tells tests and support which slot has not loaded yet.
      <div className={styles.loading} style={{ minHeight }} aria-hidden={loading === undefined} ref={nearRef} data-remote-pending={id}>
        {loading}
      </div>
    );
  let content: ReactNode;
  if (collector) content = serverContent(collector, { id, props: props ?? {}, ...(whenVisible ? { whenVisible } : {}) }, placeholder);
  else if (markupFromServer) {
    // Taken here, outside the boundary: a failed load is forgotten, and the boundary's own retry
    // of its children must not start a new one (the next mount of the slot does).
    const RemoteComponent = lazyServerSlot(id, whenVisible);
    content = <RemoteComponent {...(props ?? {})} />;
  } else if (whenVisible && !near) content = placeholder;
  else {
    // No markup from the server: its placeholder again while React adopts the page (the server's
    // snapshot, so the markup matches), then the remote.
    const RemoteComponent = lazyRemote(id);
    content = (
      <AfterHydration placeholder={placeholder}>
        <RemoteComponent {...(props ?? {})} />
      </AfterHydration>
    );
  }
  return (
    <RemoteErrorBoundary id={id} message={message}>
      <Suspense fallback={placeholder}>{content}</Suspense>
    </RemoteErrorBoundary>
  );
}

/** On the server: the slot is recorded (once), and shows its remote's markup when there is some. */
function serverContent(collector: PageRenderCollector, slot: SlotRequest, placeholder: ReactNode): ReactNode {
  if (!collector.slots.some((recorded) => recorded.id === slot.id)) collector.slots.push(slot);
  const rendered = collector.serverSlots[slot.id];
  return rendered ? <SlotWrapper id={slot.id} release={rendered.release} html={rendered.html} /> : placeholder;
}
