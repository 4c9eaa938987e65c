import { PREVIEW_TOKEN_HOURS } from '@agency/shared';
import { appFolder, type AppName } from '../releases/apps';
import { describeCanary, type ListedRelease, type ListResult, type PublishedBuild, type ReleaseResult } from '../releases/commands';
import type { ReleaseRecord } from '../releases/release-repository';

/** What visitors get when no release is current. */
const servedId = (release: ReleaseRecord | undefined) => release?.id ?? 'dist';

function buildLine(app: AppName, { release, created, source }: PublishedBuild): string {
  return created ? `Published ${app} release ${release.id} from ${source}` : `${app} release ${release.id} already holds this build`;
}

function prunedLines(app: AppName, pruned: readonly ReleaseRecord[]): string[] {
  return pruned.length ? [`Removed ${pruned.length} old ${app} release(s): ${pruned.map((release) => release.id).join(', ')}`] : [];
}

const alreadyCurrentLine = (app: AppName, id: string) => `${id} is already the current ${app} release`;

function note(entry: ListedRelease): string {
  switch (entry.role) {
    case 'current':
      return 'current';
    case 'candidate':
      return `candidate, ${entry.share} % of visitors`;
    case 'previous':
      return 'previous (--rollback)';
    case 'staged':
      return 'staged (preview only)';
    default:
      return '';
  }
}

/** `--list`: a table of the kept releases, its columns as wide as their longest id. */
function listLines({ app, store, releases, current }: ListResult): string[] {
  if (releases.length === 0) return [`No ${app} releases in ${store}: ${app} is served from ${appFolder(app)}/dist.`];
  const width = Math.max(...releases.map(({ release }) => release.id.length), 'RELEASE'.length);
  const row = (mark: string, id: string, builtAt: string, revision: string, publishedAt: string, text: string) =>
    `${mark} ${id.padEnd(width)}  ${builtAt.padEnd(24)}  ${revision.padEnd(14)}  ${publishedAt.padEnd(24)}  ${text}`.trimEnd();
  return [
    `${app} releases, newest first (* = current):`,
    row(' ', 'RELEASE', 'BUILT', 'REVISION', 'PUBLISHED', ''),
    ...releases.map((entry) => {
      const { release } = entry;
      return row(entry.role === 'current' ? '*' : ' ', release.id, release.builtAt, release.revision, release.publishedAt, note(entry));
    }),
    ...(current ? [] : [`None is current: ${app} is served from ${appFolder(app)}/dist.`]),
  ];
}

/** The lines `npm run release` prints for what a release command did. */
export function formatReleaseResult(result: ReleaseResult): string[] {
  const { app } = result;
  switch (result.kind) {
    case 'publish': {
      const { id } = result.build.release;
      if (result.alreadyCurrent) return [buildLine(app, result.build), alreadyCurrentLine(app, id)];
      return [buildLine(app, result.build), `${app} release ${id} is now current`, ...prunedLines(app, result.pruned)];
    }
    case 'stage': {
      const { id } = result.build.release;
      return [
        buildLine(app, result.build),
        result.alreadyCurrent ? `${id} is the current ${app} release: every visitor gets it already` : `${app} release ${id} is staged: no visitor gets it`,
        `Preview it in one browser (valid ${PREVIEW_TOKEN_HOURS} h): ${result.previewUrl}`,
        ...prunedLines(app, result.pruned),
      ];
    }
    case 'canary':
      return [
        ...(result.build ? [buildLine(app, result.build)] : []),
        `${app} release ${result.candidate.id} is the candidate for ${describeCanary(result.candidate)}; the others get ${servedId(result.current)}`,
        ...prunedLines(app, result.pruned),
      ];
    case 'promote':
      if (result.alreadyCurrent) return [alreadyCurrentLine(app, result.release.id)];
      return [`${app} release ${result.release.id} is now current (was ${servedId(result.from)})`];
    case 'rollback':
      if (result.candidate) return [`Rolled back ${app} candidate ${result.from.id}: every visitor gets ${servedId(result.to)}`];
      return [`Rolled back ${app}: release ${servedId(result.to)} is now current (was ${result.from.id})`];
    case 'abort':
      return [`Dropped ${app} candidate ${result.dropped.id}: every visitor gets ${servedId(result.current)}`];
    case 'list':
      return listLines(result);
  }
}
