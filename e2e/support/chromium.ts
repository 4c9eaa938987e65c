import chromiumArgs from './chromium-args.json';
import { existsSync } from 'node:fs';

/** Debian's chromium package; CHROMIUM_PATH overrides. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
}

/** Flags for a headless Chromium on a CI machine (the benchmark reads the same file). */
export const CHROMIUM_ARGS: string[] = chromiumArgs;
