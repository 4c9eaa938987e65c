/** A random secret every API process of the site shares (migration 0010). */
export interface SiteSecretsTable {
  name: string;
  value: string;
}

/** Which API process does a kind of site-wide work for now (migration 0009; named when releases were its only use). */
export interface ReleaseLeasesTable {
  name: string;
  holder: string;
  /** Milliseconds since the Unix epoch; bigint on PostgreSQL (read back as a string). */
  expires_at: number | string;
}

/** Tables every product relies on: the shared secrets and which process does site-wide work. */
export interface PlatformTables {
  site_secrets: SiteSecretsTable;
  release_leases: ReleaseLeasesTable;
}
