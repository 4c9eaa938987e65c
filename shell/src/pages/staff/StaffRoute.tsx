import { BRAND, STAFF_PATHS, type PageMeta } from '@agency/shared';
import { RemoteSlot } from '../../frame/federation/remote-slot';
import { usePageMeta } from '../../frame/page/page-render-context';

const STAFF_PAGE_META: PageMeta = {
  title: `Консоль команди «${BRAND.name}»`,
  description: 'Робочий простір команди агенції: заявки, команда, журнал дій.',
  path: STAFF_PATHS.home,
  type: 'website',
  noindex: true,
};

/**
 * `/staff/*`: the staff console remote, alone on the page (no public header or footer). The only
 * route that loads it: public pages never ask for its code.
 */
export function StaffRoute() {
  usePageMeta(STAFF_PAGE_META);
  // Rendered in the browser only (the server has no one's session to render it for), which is
  // what a slot loaded when visible is: filling the screen, it is visible at once. A server-side
  // suspension would instead make hydration report the slot as redrawn.
  return <RemoteSlot id="staff/StaffConsole" minHeight="100vh" whenVisible />;
}
