import { createDatabase } from '../../api/src/platform/db/connection';
import { readSpamSecrets, SPAM_SECRET_NAMES } from '../../api/src/site/leads/spam/spam-defence';
import type { SiteSpamSecrets } from '../../api/test/helpers/person-submission';

/**
 * Suites that send leads as the site's own forms do, without a browser (streams of submissions
 * through a restart, a console's inbox filled), send what a person's browser sends beside the
 * fields: spamFieldsWith (api/test/helpers/person-submission.ts) with the site's secrets, read
 * here from its database.
 */
export { BROWSER_FETCH_HEADERS, spamFieldsWith } from '../../api/test/helpers/person-submission';
export type { SiteSpamSecrets };

/** The secrets of a site whose database this process can reach. */
export async function spamSecretsOf(databaseUrl: string): Promise<SiteSpamSecrets> {
  const db = createDatabase(databaseUrl, { poolSize: 1 });
  try {
    const { token, proof } = await readSpamSecrets(db);
    return { token, proof };
  } finally {
    await db.destroy();
  }
}

/** The secrets from `site_secrets` rows read some other way (psql in a container): name → value. */
export function spamSecretsFromRows(rows: Record<string, string>): SiteSpamSecrets {
  const value = (name: string) => {
    const found = rows[name];
    if (!found) throw new Error(`the site has no secret ${name} yet (it makes them at start)`);
    return found;
  };
  return { token: value(SPAM_SECRET_NAMES.token), proof: { signature: value(SPAM_SECRET_NAMES.proofSignature), key: value(SPAM_SECRET_NAMES.proofKey) } };
}

/** The psql query whose rows (`name=value`, one a line) spamSecretsFromLines reads. */
export const SPAM_SECRETS_QUERY = `select name || '=' || value from site_secrets where name like 'spam-%'`;

/** spamSecretsFromRows of psql's unaligned output of SPAM_SECRETS_QUERY. */
export function spamSecretsFromLines(output: string): SiteSpamSecrets {
  const rows = output.trim().split('\n').filter(Boolean).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return spamSecretsFromRows(Object.fromEntries(rows));
}
