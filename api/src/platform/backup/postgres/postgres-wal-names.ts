/**
 * The names of PostgreSQL's archived WAL files, as archive_command passes them (%f):
 *   000000010000000000000002                    a segment: timeline, then its position (log, segment)
 *   00000002.history                            a timeline's history (which parent it branched from, where)
 *   000000010000000000000002.00000028.backup    a base backup's history (start and stop locations)
 *   000000010000000000000002.partial            the old timeline's last, unfinished segment after a promotion
 * Names of one timeline sort by position; `00000002.history` sorts before that timeline's segments.
 */

const SEGMENT = /^[0-9A-F]{24}$/;
const HISTORY = /^[0-9A-F]{8}\.history$/;
const BACKUP_HISTORY = /^[0-9A-F]{24}\.[0-9A-F]{8}\.backup$/;
const PARTIAL = /^[0-9A-F]{24}\.partial$/;

export type WalFileKind = 'segment' | 'history' | 'backup-history' | 'partial';

/** What kind of archived WAL file `name` is; undefined for any other name. */
export function walFileKind(name: string): WalFileKind | undefined {
  if (SEGMENT.test(name)) return 'segment';
  if (HISTORY.test(name)) return 'history';
  if (BACKUP_HISTORY.test(name)) return 'backup-history';
  if (PARTIAL.test(name)) return 'partial';
  return undefined;
}

/** The timeline a WAL file belongs to (its first eight hex digits). */
export function walTimeline(name: string): number {
  return Number.parseInt(name.slice(0, 8), 16);
}

/** Segments per "log" (the middle eight hex digits): 4 GiB of WAL. */
function segmentsPerLog(segmentSize: number): number {
  return 0x1_0000_0000 / segmentSize;
}

/** The segment's number along the WAL (its position divided by the segment size). */
export function segmentNumber(name: string, segmentSize: number): number {
  const log = Number.parseInt(name.slice(8, 16), 16);
  const segment = Number.parseInt(name.slice(16, 24), 16);
  return log * segmentsPerLog(segmentSize) + segment;
}

const hex8 = (value: number) => value.toString(16).toUpperCase().padStart(8, '0');

/** The name of segment number `segno` of `timeline`. */
export function segmentName(timeline: number, segno: number, segmentSize: number): string {
  const perLog = segmentsPerLog(segmentSize);
  return `${hex8(timeline)}${hex8(Math.floor(segno / perLog))}${hex8(segno % perLog)}`;
}

/** The segment after `name` on the same timeline. */
export function nextSegment(name: string, segmentSize: number): string {
  return segmentName(walTimeline(name), segmentNumber(name, segmentSize) + 1, segmentSize);
}

/** Where a segment starts in the WAL (its LSN), as a number of bytes. */
export function segmentStart(name: string, segmentSize: number): bigint {
  return BigInt(segmentNumber(name, segmentSize)) * BigInt(segmentSize);
}

/** The store's key of an archived WAL file (backup-catalog.ts: `wal/<name>.age`). */
export function walObjectKey(name: string): string {
  return `wal/${name}.age`;
}

/** The WAL file name of a store key, or undefined for a key that is none. */
export function walNameOfKey(key: string): string | undefined {
  const match = /^wal\/([^/]+)\.age$/.exec(key);
  return match && walFileKind(match[1] as string) ? match[1] : undefined;
}
