import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { structuredDataTest, type StructuredDataResult, type StructuredDataTest } from 'structured-data-testing-tool';
import { Facebook, Google, Twitter } from 'structured-data-testing-tool/presets';
import vnuJar from 'vnu-jar';

// The web's own validators, run on what the server sends and on the page a visitor ends up with.

/** A page the server sends, with the status it must answer. */
export interface ServedPage {
  path: string;
  status: 200 | 404;
}

/**
 * Every kind of page: the home page, the listing (all posts and one category), every post, the
 * privacy page, and each way of not finding one (an unknown path, post and category).
 */
export async function servedPages(baseUrl: string): Promise<ServedPage[]> {
  const posts = (await (await fetch(`${baseUrl}/api/blog`)).json()) as { id: number; category?: string }[];
  const category = posts.find((post) => post.category)?.category ?? '';
  return [
    { path: '/', status: 200 },
    { path: '/blog', status: 200 },
    { path: `/blog?category=${encodeURIComponent(category)}`, status: 200 },
    ...posts.map((post): ServedPage => ({ path: `/blog/${post.id}`, status: 200 })),
    { path: '/privacy', status: 200 },
    { path: '/no-such-page', status: 404 },
    { path: '/blog/999999', status: 404 },
    { path: '/blog?category=Fake', status: 404 },
  ];
}

/** One finding of the W3C Nu HTML checker. */
interface NuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: 'warning' | 'fatal' | 'io' | 'schema' | 'internal';
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/**
 * CSS the checker's own CSS validator does not know yet, in the styles a page carries inline:
 * container queries (`@container`, `container-type`), in every browser since 2023.
 */
const UNKNOWN_TO_THE_CSS_CHECKER = /^CSS: (?:Unrecognized at-rule “@container”|“container-type”: Property “container-type” doesn't exist)/;

/**
 * Runs the W3C Nu HTML checker (vnu-jar, on the machine's Java) once over every page and returns
 * its errors and warnings by page path (informational notes are left out), save what its CSS
 * validator does not know yet (UNKNOWN_TO_THE_CSS_CHECKER).
 */
export async function nuHtmlFindings(pages: { path: string; html: string }[]): Promise<Record<string, string[]>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-vnu-'));
  try {
    const files = pages.map((page, index) => {
      const file = path.join(dir, `page-${index}.html`);
      writeFileSync(file, page.html);
      return file;
    });
    const args = ['-jar', String(vnuJar), '--format', 'json', '--stdout', '--exit-zero-always', ...files];
    const { stdout } = await promisify(execFile)('java', args, { maxBuffer: 64 * 1024 * 1024 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error('The W3C Nu HTML checker needs Java: apt-get install default-jre-headless');
      throw error;
    });
    const { messages } = JSON.parse(stdout) as { messages: NuMessage[] };
    const findings: Record<string, string[]> = {};
    for (const message of messages) {
      if (message.type === 'info' && message.subType !== 'warning') continue;
      if (UNKNOWN_TO_THE_CSS_CHECKER.test(message.message)) continue;
      const index = files.findIndex((file) => message.url.endsWith(path.basename(file)));
      const where = pages[index]?.path ?? message.url;
      (findings[where] ??= []).push(`${message.subType ?? message.type} at line ${message.lastLine ?? '?'}: ${message.message} ${message.extract ?? ''}`.trim());
    }
    return findings;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The structured-data-testing-tool's Google, Twitter and Facebook presets, with `tests` of our own
 * on top, run on a page's HTML. Returns what failed, readably; warnings are recommendations the
 * presets mark optional (a Twitter account the agency does not have).
 */
export async function structuredDataFailures(html: string, tests: StructuredDataTest[] = []): Promise<string[]> {
  let result: StructuredDataResult;
  try {
    result = await structuredDataTest(html, { presets: [Google, Twitter, Facebook], tests });
  } catch (error) {
    const failed = error as { type?: string; res?: StructuredDataResult };
    if (failed.type !== 'VALIDATION_FAILED' || !failed.res) throw error;
    result = failed.res;
  }
  return result.failed.map((test) => `${test.test}${test.description ? ` (${test.description})` : ''}`);
}
