import { Component, lazy, Suspense, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { SERVER_SLOT_ATTRIBUTE, type NoProps, type PropsOf, type RemoteModuleId } from '@agency/shared';
import { usePageRenderCollector } from '../page/page-render-context';
import { loadRemoteModule } from './load-remote-module';
import { serverSlotHtml } from './server-slots';
import { useNearViewport } from './use-near-viewport';
import styles from './remote-slot.module.css';

export const REMOTE_UNAVAILABLE_MESSAGE = 'Цей розділ тимчасово недоступний. Спробуйте оновити сторінку пізніше.';

// One lazy component per exposed module, so re-renders never refetch a remote. A failed one is
// forgotten, so the next time its slot mounts it is tried again.
const lazyComponents = new Map<RemoteModuleId, ComponentType<object>>();

function lazyRemote(id: RemoteModuleId): ComponentType<object> {
  let component = lazyComponents.get(id);
  if (!component) {
    component = lazy(async () => {
      try {
        const { component: Loaded, release } = await loadRemoteModule(id);
        // The wrapper tells support which release of the remote this slot shows.
        const WithRelease = (props: object) => (
          <div className={styles.slot} data-remote-module={id} data-remote-release={release}>
            <Loaded {...props} />
          </div>
        );
        return { default: WithRelease };
      } catch (error) {
        lazyComponents.delete(id);
        throw error;
      }
    });
    lazyComponents.set(id, component);
  }
  return component;
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

/** The remote's server markup, in the same wrapper the loaded remote gets. */
function ServerMarkup({ id, html }: { id: RemoteModuleId; html: string }) {
  const attributes = { [SERVER_SLOT_ATTRIBUTE]: id };
  return <div className={styles.slot} {...attributes} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Renders one exposed remote module, isolated: its failure stays inside this slot. On the server
 * it records the slot and shows the remote's server markup when there is some; in the browser
 * that markup stays on screen until the remote has loaded.
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
  const html = collector ? collector.slotHtml[id] : serverSlotHtml(id);
  // Markup from the server is already on screen: its remote takes over at once.
  const [nearRef, near] = useNearViewport(whenVisible && html === undefined && !collector);
  const placeholder =
    loading !== undefined && !whenVisible ? (
      loading
    ) : (
      <div className={styles.loading} style={{ minHeight }} aria-hidden={loading === undefined} ref={nearRef}>
        {loading}
      </div>
    );
  if (collector) {
    if (!collector.slots.some((slot) => slot.id === id)) collector.slots.push({ id, props: props ?? {} });
    return html === undefined ? placeholder : <ServerMarkup id={id} html={html} />;
  }
  if (!near) return placeholder;
  const RemoteComponent = lazyRemote(id);
  return (
    <RemoteErrorBoundary id={id} message={message}>
      <Suspense fallback={html === undefined ? placeholder : <ServerMarkup id={id} html={html} />}>
        <RemoteComponent {...(props ?? {})} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
