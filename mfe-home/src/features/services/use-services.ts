import { useEffect, useState } from 'react';
import type { Service } from '@agency/shared';
import { fetchServices } from '@agency/shared/api-client';

export type ServicesStatus = 'loading' | 'ready' | 'failed';

export interface ServicesState {
  status: ServicesStatus;
  services: Service[];
}

/**
 * Loads the services as soon as the section mounts (spec: on page load, alongside the blog list).
 * A failure is only logged: the list stays empty and the visitor sees no error (spec section 8).
 */
export function useServices(): ServicesState {
  const [state, setState] = useState<ServicesState>({ status: 'loading', services: [] });

  useEffect(() => {
    let active = true;
    fetchServices().then(
      (services) => {
        if (!active) return;
        if (!Array.isArray(services)) {
          console.error('[home] GET /api/services answered with something other than a list', services);
          setState({ status: 'failed', services: [] });
          return;
        }
        setState({ status: 'ready', services });
      },
      (error: unknown) => {
        console.error('[home] could not load services', error);
        if (active) setState({ status: 'failed', services: [] });
      },
    );
    return () => {
      active = false;
    };
  }, []);

  return state;
}
