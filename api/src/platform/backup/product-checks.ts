/**
 * The tables of each product of the site a restore drill counts on the restored copy: each must
 * hold the rows the manifest counted, so a drill proves that what each product keeps came back,
 * not only that the file opens.
 */
export const PRODUCT_TABLES = {
  platform: ['site_secrets'],
  site: ['contact_messages', 'job_applications', 'blog_posts', 'services', 'media_files', 'lead_outbox'],
  delivery: ['release_apps', 'releases', 'release_events', 'release_tokens'],
  staff: ['staff_members', 'staff_passkeys', 'leads', 'lead_history', 'lead_notes', 'staff_audit', 'article_revisions'],
} as const;

export type ProductName = keyof typeof PRODUCT_TABLES;

export interface ProductCheck {
  product: ProductName;
  rows: number;
  mismatches: string[];
}

/** Per product: the rows its tables hold in `found`, and each table whose count differs from `expected`. */
export function compareProducts(found: Record<string, number>, expected: Record<string, number>): ProductCheck[] {
  return (Object.entries(PRODUCT_TABLES) as [ProductName, readonly string[]][]).map(([product, tables]) => ({
    product,
    rows: tables.reduce((sum, table) => sum + (found[table] ?? 0), 0),
    mismatches: tables.flatMap((table) => (expected[table] !== undefined && expected[table] !== found[table] ? [`${table}: ${found[table] ?? 'no table'} rows, the manifest says ${expected[table]}`] : [])),
  }));
}

/** Every table a drill counts. */
export const CHECKED_TABLES: readonly string[] = Object.values(PRODUCT_TABLES).flat();
