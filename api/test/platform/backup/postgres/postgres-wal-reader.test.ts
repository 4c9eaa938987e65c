import { dateToPgTimestamp, pgTimestampToIso, WalTransactionScanner } from '../../../../src/platform/backup/postgres/postgres-wal-reader';
import { segmentName } from '../../../../src/platform/backup/postgres/postgres-wal-names';
import { describeOnPostgres } from './archiving-cluster';

// Real WAL is read in postgres-restore.test.ts (its last commit found to the microsecond). Here,
// WAL laid out by hand, small (1 KiB pages, 8 KiB segments), covers what real WAL rarely shows
// on demand: records across pages and segments, a switch, a recycled file's leftovers.

const PAGE = 1024;
const SEGMENT = 8192;
const MAGIC = 0xd118;

/** Writes WAL records from the start of segment `firstSegno` the way PostgreSQL lays them out. */
class WalWriter {
  readonly segments = new Map<number, Buffer>();
  private lsn: number;
  private previous = 0;

  constructor(private readonly firstSegno: number) {
    this.lsn = firstSegno * SEGMENT;
  }

  private segment(segno: number): Buffer {
    let buffer = this.segments.get(segno);
    if (!buffer) {
      buffer = Buffer.alloc(SEGMENT);
      this.segments.set(segno, buffer);
    }
    return buffer;
  }

  /** A page header where a page starts; `remaining` bytes of a record continue on it. */
  private pageHeader(remaining: number): void {
    if (this.lsn % PAGE !== 0) return;
    const segno = Math.floor(this.lsn / SEGMENT);
    const buffer = this.segment(segno);
    const offset = this.lsn % SEGMENT;
    const long = offset === 0;
    buffer.writeUInt16LE(MAGIC, offset);
    buffer.writeUInt16LE((remaining > 0 ? 0x0001 : 0) | (long ? 0x0002 : 0), offset + 2);
    buffer.writeUInt32LE(1, offset + 4);
    buffer.writeBigUInt64LE(BigInt(this.lsn), offset + 8);
    buffer.writeUInt32LE(remaining, offset + 16);
    if (long) {
      buffer.writeBigUInt64LE(7n, offset + 24);
      buffer.writeUInt32LE(SEGMENT, offset + 32);
      buffer.writeUInt32LE(PAGE, offset + 36);
    }
    this.lsn += long ? 40 : 24;
  }

  /** Appends a record; `prev` overrides xl_prev (to write leftovers that break the chain). */
  record(rmgr: number, info: number, body: Buffer, prev?: number): number {
    this.lsn = (this.lsn + 7) & ~7;
    this.pageHeader(0);
    const start = this.lsn;
    const header = Buffer.alloc(24);
    header.writeUInt32LE(24 + body.length, 0);
    header.writeBigUInt64LE(BigInt(prev ?? this.previous), 8);
    header.writeUInt8(info, 16);
    header.writeUInt8(rmgr, 17);
    const bytes = Buffer.concat([header, body]);
    let written = 0;
    while (written < bytes.length) {
      this.pageHeader(bytes.length - written);
      const room = PAGE - (this.lsn % PAGE);
      const part = bytes.subarray(written, written + Math.min(room, bytes.length - written));
      part.copy(this.segment(Math.floor(this.lsn / SEGMENT)), this.lsn % SEGMENT);
      this.lsn += part.length;
      written += part.length;
    }
    this.previous = start;
    return start;
  }

  commit(at: Date, extra = 0): number {
    const main = Buffer.alloc(8 + extra);
    main.writeBigInt64LE(dateToPgTimestamp(at));
    return this.record(1, 0x00, Buffer.concat([Buffer.from([255, main.length]), main]));
  }

  /** Some other record: a heap insert's main data of `size` bytes (long form past 255). */
  other(size: number): number {
    const head = size < 256 ? Buffer.from([255, size]) : Buffer.concat([Buffer.from([254]), Buffer.alloc(4)]);
    if (size >= 256) head.writeUInt32LE(size, 1);
    return this.record(10, 0x00, Buffer.concat([head, Buffer.alloc(size, 7)]));
  }

  get position(): number {
    return this.lsn;
  }

  file(segno: number): [string, Buffer] {
    return [segmentName(1, segno, SEGMENT), this.segment(segno)];
  }
}

const at = (iso: string) => new Date(iso);

describeOnPostgres('WalTransactionScanner', () => {
  test('PostgreSQL timestamps convert both ways, to the microsecond', () => {
    expect(dateToPgTimestamp(at('2000-01-01T00:00:00.000Z'))).toBe(0n);
    expect(pgTimestampToIso(dateToPgTimestamp(at('2026-11-30T05:36:11.513Z')) + 42n)).toBe('2026-11-30T05:36:11.513042Z');
  });

  test('finds the latest commit, across pages and across a segment boundary', () => {
    const wal = new WalWriter(2);
    wal.commit(at('2026-01-01T10:00:00.000Z'));
    wal.other(3000); // spans pages
    wal.commit(at('2026-01-01T10:00:01.000Z'), 500);
    while (wal.position + 134 <= 3 * SEGMENT - 64) wal.other(100);
    // A commit record cut by the end of segment 2.
    const cut = wal.commit(at('2026-01-01T10:00:02.000Z'), 200);
    expect([Math.floor(cut / SEGMENT), Math.floor(wal.position / SEGMENT)]).toEqual([2, 3]);
    wal.commit(at('2026-01-01T10:00:03.000Z'));
    wal.other(10);

    const scanner = new WalTransactionScanner();
    scanner.add(...wal.file(2));
    expect(scanner.latestTransactionEnd).toBe(dateToPgTimestamp(at('2026-01-01T10:00:01.000Z')));
    scanner.add(...wal.file(3));
    expect(scanner.transactionEnds).toBe(4);
    expect(pgTimestampToIso(scanner.latestTransactionEnd as bigint)).toBe('2026-01-01T10:00:03.000000Z');

    // Without the segment before, the continued record is skipped and the rest still read.
    const alone = new WalTransactionScanner();
    alone.add(...wal.file(3));
    expect(alone.transactionEnds).toBe(1);
  });

  test('stops at a switch, at a record that breaks the xl_prev chain, and at a recycled page', () => {
    const late = at('2030-01-01T00:00:00.000Z');
    // What follows a switch record in its segment is not WAL, even when it chains well.
    const leftovers = new WalWriter(4);
    leftovers.commit(at('2026-01-01T10:00:00.000Z'));
    leftovers.record(0, 0x40, Buffer.alloc(0));
    leftovers.commit(late);
    const afterSwitch = new WalTransactionScanner();
    afterSwitch.add(...leftovers.file(4));
    expect(afterSwitch.latestTransactionEnd).toBe(dateToPgTimestamp(at('2026-01-01T10:00:00.000Z')));

    const chainBroken = new WalWriter(6);
    chainBroken.commit(at('2026-01-01T10:00:00.000Z'));
    chainBroken.record(1, 0x00, Buffer.concat([Buffer.from([255, 8]), bigint64(dateToPgTimestamp(late))]), 12345);
    const stale = new WalTransactionScanner();
    stale.add(...chainBroken.file(6));
    expect(stale.transactionEnds).toBe(1);

    // A page from another place in the WAL (a recycled file's): the segment's WAL ends before it.
    const recycled = new WalWriter(8);
    recycled.commit(at('2026-01-01T10:00:00.000Z'));
    while (recycled.position < 8 * SEGMENT + PAGE + 100) recycled.other(50);
    recycled.commit(late);
    const [recycledName, recycledBytes] = recycled.file(8);
    recycledBytes.writeBigUInt64LE(123n * BigInt(SEGMENT), PAGE + 8);
    const scanner = new WalTransactionScanner();
    scanner.add(recycledName, recycledBytes);
    expect(scanner.latestTransactionEnd).toBe(dateToPgTimestamp(at('2026-01-01T10:00:00.000Z')));
  });

  test('a file that is not the segment its name says is refused', () => {
    const wal = new WalWriter(2);
    wal.commit(at('2026-01-01T10:00:00.000Z'));
    const [, bytes] = wal.file(2);
    expect(() => new WalTransactionScanner().add(segmentName(1, 5, SEGMENT), bytes)).toThrow(/not the file its name says/);
    expect(() => new WalTransactionScanner().add(segmentName(1, 2, SEGMENT), bytes.subarray(0, 4096))).toThrow(/has 4096 bytes/);
  });
});

function bigint64(value: bigint): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigInt64LE(value);
  return buffer;
}
