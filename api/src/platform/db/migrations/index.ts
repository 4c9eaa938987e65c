import type { Migration } from 'kysely';
import * as m0001 from './0001_initial';
import * as m0002 from './0002_content_revision';
import * as m0003 from './0003_health_probe';
import * as m0004 from './0004_lead_outbox';
import * as m0005 from './0005_blog_publishing';
import * as m0006 from './0006_submission_idempotency';
import * as m0007 from './0007_release_telemetry';
import * as m0008 from './0008_lead_attribution';
import * as m0009 from './0009_release_leases';
import * as m0010 from './0010_telemetry_clients';
import * as m0011 from './0011_release_state';
import * as m0012 from './0012_staff_console';
import * as m0013 from './0013_privacy_retention';
import * as m0014 from './0014_article_editing';
import * as m0015 from './0015_service_editing';
import * as m0016 from './0016_spam_defence';
import * as m0017 from './0017_lead_follow_up';
import * as m0018 from './0018_site_analytics';
import * as m0019 from './0019_release_managers';

/** All migrations in order. Names sort alphabetically; append only. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_content_revision': m0002,
  '0003_health_probe': m0003,
  '0004_lead_outbox': m0004,
  '0005_blog_publishing': m0005,
  '0006_submission_idempotency': m0006,
  '0007_release_telemetry': m0007,
  '0008_lead_attribution': m0008,
  '0009_release_leases': m0009,
  '0010_telemetry_clients': m0010,
  '0011_release_state': m0011,
  '0012_staff_console': m0012,
  '0013_privacy_retention': m0013,
  '0014_article_editing': m0014,
  '0015_service_editing': m0015,
  '0016_spam_defence': m0016,
  '0017_lead_follow_up': m0017,
  '0018_site_analytics': m0018,
  '0019_release_managers': m0019,
};
