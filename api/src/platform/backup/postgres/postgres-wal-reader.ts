import { nextSegment, segmentStart } from './postgres-wal-names';

/**
 * Reads the one thing a restore needs to know from archived WAL: when its transactions ended.
 *
 * Why: a restore to a time (recovery_target_time) stops before the first transaction that ended
 * after that time. When the archive holds none, PostgreSQL 13+ replays to the end and then stops
 * with "FATAL: recovery ended before configured recovery target was reached": the restore of the
 * very latest moments fails. Replaying everything gives the same data in that case, so the restore
 * asks this reader first. PostgreSQL ships no WAL reader in the binaries the site runs
 * (pg_waldump is a separate package), so this walks the records itself, using only the parts of
 * the format that have stayed the same since PostgreSQL 9.5 (xlog_internal.h, xlogrecord.h):
 * - a segment is pages (xlp_xlog_blcksz, usually 8 KiB) with a header each, the first page's long
 *   header giving the segment and page sizes; a record continued from the previous page is flagged;
 * - records (XLogRecord: xl_tot_len, xl_xid, xl_prev, xl_info, xl_rmid, xl_crc) start on 8-byte
 *   boundaries and run across pages; xl_prev chains them, and a record whose xl_prev breaks the
 *   chain is leftover data from a recycled file, where the WAL ends;
 * - a transaction's commit or abort record (rmgr 1) has no block references, and its main data
 *   starts with xact_time, microseconds since 2000-01-01 UTC;
 * - a WAL switch (rmgr 0, info 0x40) ends the segment's WAL.
 * The files have been authenticated by age before they get here, so no CRC is checked.
 */

const XLP_FIRST_IS_CONTRECORD = 0x0001;
const XLP_LONG_HEADER = 0x0002;
const XLP_FIRST_IS_OVERWRITE_CONTRECORD = 0x0008;
const SHORT_PAGE_HEADER = 24;
const LONG_PAGE_HEADER = 40;
const RECORD_HEADER = 24;

const RM_XLOG_ID = 0;
const RM_XACT_ID = 1;
const XLOG_SWITCH = 0x40;
const XLOG_XACT_OPMASK = 0x70;
/** COMMIT, ABORT, COMMIT_PREPARED, ABORT_PREPARED: what recovery_target_time looks at. */
const XACT_ENDS = new Set([0x00, 0x20, 0x30, 0x40]);

const BLOCK_ID_DATA_SHORT = 255;
const BLOCK_ID_DATA_LONG = 254;
const BLOCK_ID_ORIGIN = 253;
const BLOCK_ID_TOPLEVEL_XID = 252;

/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01 UTC). */
const PG_EPOCH_US = 946_684_800_000_000n;

/** A PostgreSQL timestamp (µs since 2000-01-01 UTC) as ISO 8601 with microseconds. */
export function pgTimestampToIso(pgMicros: bigint): string {
  // Times before 1970 never occur in WAL; bigint division truncates toward zero.
  const unixMicros = pgMicros + PG_EPOCH_US;
  const base = new Date(Number(unixMicros / 1000n)).toISOString();
  return `${base.slice(0, -1)}${(unixMicros % 1000n).toString().padStart(3, '0')}Z`;
}

/** A Date as a PostgreSQL timestamp (µs since 2000-01-01 UTC). */
export function dateToPgTimestamp(date: Date): bigint {
  return BigInt(date.getTime()) * 1000n - PG_EPOCH_US;
}

const align8 = (value: number) => (value + 7) & ~7;

/** A record cut by the end of a segment, completed by the next one. */
interface Pending {
  segment: string;
  lsn: bigint;
  totalLength: number;
  parts: Buffer[];
  length: number;
}

/** Reads WAL segments in order and keeps the latest transaction end it saw. */
export class WalTransactionScanner {
  /** The latest commit or abort time seen (µs since 2000-01-01 UTC). */
  latestTransactionEnd: bigint | undefined;
  /** How many commit and abort records were read. */
  transactionEnds = 0;
  private pending: Pending | undefined;
  private last: { segment: string; lsn: bigint } | undefined;

  /** Reads the segment `name` (a full archived segment file). Call in name order. */
  add(name: string, segment: Buffer): void {
    if (segment.length < LONG_PAGE_HEADER) throw new Error(`WAL segment ${name} is too short (${segment.length} bytes)`);
    const info = segment.readUInt16LE(2);
    if ((info & XLP_LONG_HEADER) === 0) throw new Error(`WAL segment ${name} does not start with a segment header`);
    const segmentSize = segment.readUInt32LE(32);
    const pageSize = segment.readUInt32LE(36);
    if (segmentSize !== segment.length || pageSize < 1024 || segmentSize % pageSize !== 0) {
      throw new Error(`WAL segment ${name} has ${segment.length} bytes; its header says segments of ${segmentSize} bytes in pages of ${pageSize}`);
    }
    const start = segmentStart(name, segmentSize);
    if (segment.readBigUInt64LE(8) !== start) throw new Error(`WAL segment ${name} holds WAL from another position: it is not the file its name says`);

    const follows = (before: { segment: string } | undefined) => before !== undefined && nextSegment(before.segment, segmentSize) === name;
    const pending = follows(this.pending) ? this.pending : undefined;
    let previousLsn = follows(this.last) ? this.last?.lsn : undefined;
    this.pending = undefined;
    this.last = undefined;

    // The segment's record bytes, page headers left out, up to the first page that is not this
    // segment's (a recycled file's leftovers). Headers are multiples of 8 bytes, so alignment in
    // these bytes is alignment in the WAL.
    const magic = segment.readUInt16LE(0);
    const payloads: Buffer[] = [];
    let complete = true;
    for (let page = 0; page * pageSize < segmentSize; page += 1) {
      const offset = page * pageSize;
      if (segment.readUInt16LE(offset) !== magic || segment.readBigUInt64LE(offset + 8) !== start + BigInt(offset)) {
        complete = false;
        break;
      }
      const headerSize = segment.readUInt16LE(offset + 2) & XLP_LONG_HEADER ? LONG_PAGE_HEADER : SHORT_PAGE_HEADER;
      payloads.push(segment.subarray(offset + headerSize, offset + pageSize));
    }
    const data = Buffer.concat(payloads);
    const firstPayload = pageSize - LONG_PAGE_HEADER;
    const lsnAt = (position: number): bigint => {
      if (position < firstPayload) return start + BigInt(LONG_PAGE_HEADER + position);
      const rest = position - firstPayload;
      const page = 1 + Math.floor(rest / (pageSize - SHORT_PAGE_HEADER));
      return start + BigInt(page * pageSize + SHORT_PAGE_HEADER + (rest % (pageSize - SHORT_PAGE_HEADER)));
    };

    let position = 0;
    if (info & XLP_FIRST_IS_CONTRECORD) {
      const remaining = segment.readUInt32LE(16);
      if (pending && (info & XLP_FIRST_IS_OVERWRITE_CONTRECORD) === 0 && remaining === pending.totalLength - pending.length) {
        if (remaining > data.length) {
          // The record runs on into the next segment still.
          if (complete) this.pending = { ...pending, segment: name, parts: [...pending.parts, data], length: pending.length + data.length };
          return;
        }
        const record = Buffer.concat([...pending.parts, data.subarray(0, remaining)]);
        if (previousLsn === undefined || record.readBigUInt64LE(8) === previousLsn) {
          this.read(record);
          previousLsn = pending.lsn;
        } else {
          previousLsn = undefined;
        }
      } else {
        // Its start is in a segment not read here: skip its end, the chain restarts after it.
        previousLsn = undefined;
      }
      position = align8(remaining);
    }

    while (position + 4 <= data.length) {
      const totalLength = data.readUInt32LE(position);
      if (totalLength < RECORD_HEADER) break;
      const lsn = lsnAt(position);
      if (position + RECORD_HEADER <= data.length && previousLsn !== undefined && data.readBigUInt64LE(position + 8) !== previousLsn) break;
      if (position + totalLength > data.length) {
        if (complete) {
          const part = Buffer.from(data.subarray(position));
          this.pending = { segment: name, lsn, totalLength, parts: [part], length: part.length };
        }
        break;
      }
      const ended = this.read(data.subarray(position, position + totalLength));
      previousLsn = lsn;
      if (ended) break;
      position = align8(position + totalLength);
    }
    if (previousLsn !== undefined) this.last = { segment: name, lsn: previousLsn };
  }

  /** Reads one whole record; true when it is a WAL switch (nothing follows in its segment). */
  private read(record: Buffer): boolean {
    const info = record.readUInt8(16);
    const rmgr = record.readUInt8(17);
    if (rmgr === RM_XLOG_ID && (info & 0xf0) === XLOG_SWITCH) return true;
    if (rmgr !== RM_XACT_ID || !XACT_ENDS.has(info & XLOG_XACT_OPMASK)) return false;
    let at = RECORD_HEADER;
    while (at < record.length) {
      const id = record.readUInt8(at);
      if (id === BLOCK_ID_ORIGIN) at += 3;
      else if (id === BLOCK_ID_TOPLEVEL_XID) at += 5;
      else if (id === BLOCK_ID_DATA_SHORT || id === BLOCK_ID_DATA_LONG) {
        const short = id === BLOCK_ID_DATA_SHORT;
        if (at + (short ? 2 : 5) > record.length) return false;
        const length = short ? record.readUInt8(at + 1) : record.readUInt32LE(at + 1);
        const main = at + (short ? 2 : 5);
        if (length < 8 || main + 8 > record.length) return false;
        const time = record.readBigInt64LE(main);
        this.transactionEnds += 1;
        if (this.latestTransactionEnd === undefined || time > this.latestTransactionEnd) this.latestTransactionEnd = time;
        return false;
      } else {
        // A block reference: no transaction end has one.
        return false;
      }
    }
    return false;
  }
}
