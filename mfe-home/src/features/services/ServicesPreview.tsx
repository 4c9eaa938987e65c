import type { ServicesPreviewProps } from '@agency/shared';
import { ServicesSection } from './Services';

/**
 * The services section with the services given, drawn exactly as the home page draws it: the
 * staff console's preview of its changes, with this remote's released code and styles.
 */
export default function ServicesPreview({ services }: ServicesPreviewProps) {
  return <ServicesSection services={services} loading={false} />;
}
