import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../platform/config';
import type { Database } from '../../platform/db/connection';
import { changedAnything, ContentFolderMissing, syncContent } from './content-sync';

/**
 * The server's start runs the same sync as `npm run content -- sync`, so a deploy carrying new
 * articles publishes them. A broken article never stops the site: it is logged and skipped, and
 * a missing content folder leaves the blog as it is.
 */
export async function publishArticles(db: Database, config: Pick<AppConfig, 'contentDir' | 'mediaDir'>, log: FastifyBaseLogger): Promise<void> {
  try {
    const report = await syncContent(db, config);
    for (const refused of report.refused) {
      log.warn({ file: refused.file, field: refused.field }, `article not published: ${refused.message}`);
    }
    if (changedAnything(report)) {
      log.info({ added: report.added, updated: report.updated, unpublished: report.unpublished }, 'articles synced from the content folder');
    }
  } catch (error) {
    if (!(error instanceof ContentFolderMissing)) throw error;
    log.warn({ contentDir: config.contentDir }, 'no content folder: blog posts left as they are');
  }
}
