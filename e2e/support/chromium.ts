import chromiumArgs from './chromium-args.json';
import { existsSync } from 'node:fs';

/**
 * Debian's chromium-headless-shell, else its chromium; CHROMIUM_PATH overrides. The headless shell
 * is Chromium's own headless build (Playwright's default for headless runs): the same Blink and V8
 * without the desktop browser around them, which spent most of the browser suites' CPU.
 */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
}

/** Flags for a headless Chromium on a CI machine (the benchmark reads the same file). */
export const CHROMIUM_ARGS: string[] = chromiumArgs;
