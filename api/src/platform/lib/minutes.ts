const MS_PER_MINUTE = 60_000;

/** Whole minutes since the Unix epoch: how telemetry rows and lead reports say when. */
export function toMinute(timeMs: number): number {
  return Math.floor(timeMs / MS_PER_MINUTE);
}
