import { Component, lazy, Suspense, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { registerRuntimeRemotes } from './remotes-config';
import { REMOTE_UNAVAILABLE } from './remote-fallback-plugin';
import styles from './remote-slot.module.css';

export const REMOTE_UNAVAILABLE_MESSAGE = 'Цей розділ тимчасово недоступний. Спробуйте оновити сторінку пізніше.';

type RemoteModule = { default?: ComponentType<never> } & Record<string, unknown>;

// One lazy component per exposed module, so re-renders never refetch a remote.
const lazyComponents = new Map<string, ComponentType<object>>();

function lazyRemote(id: string): ComponentType<object> {
  let component = lazyComponents.get(id);
  if (!component) {
    component = lazy(async () => {
      await registerRuntimeRemotes();
      const remoteModule = await loadRemote<RemoteModule>(id);
      if (!remoteModule || remoteModule[REMOTE_UNAVAILABLE] || typeof remoteModule.default !== 'function') {
        throw new Error(`Remote module ${id} is unavailable`);
      }
      return { default: remoteModule.default as ComponentType<object> };
    });
    lazyComponents.set(id, component);
  }
  return component;
}

interface BoundaryProps {
  id: string;
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

interface RemoteSlotProps<P extends object> {
  /** `remote/Module`, e.g. `home/Hero`. */
  id: string;
  props?: P;
  /** Space kept while the remote loads, so nothing below it jumps. */
  minHeight?: string;
  loading?: ReactNode;
  message?: string;
}

/** Renders one exposed remote module, isolated: its failure stays inside this slot. */
export function RemoteSlot<P extends object>({
  id,
  props,
  minHeight,
  loading,
  message = REMOTE_UNAVAILABLE_MESSAGE,
}: RemoteSlotProps<P>) {
  const RemoteComponent = lazyRemote(id);
  return (
    <RemoteErrorBoundary id={id} message={message}>
      <Suspense fallback={loading ?? <div className={styles.loading} style={{ minHeight }} aria-hidden="true" />}>
        <RemoteComponent {...(props ?? {})} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
