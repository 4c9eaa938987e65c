import { PAGE_DATA_IDS, TELEMETRY_SAMPLE_META, type RemotesDocument } from '@agency/shared';

// For the telemetry tests: the page as the server sends it, and reading what the page sent.

/** The remotes document a server-rendered page carries, with each app's release. */
export const REMOTES_IN_PAGE: RemotesDocument = {
  shell: { release: 'shell-7' },
  remotes: {
    home: { entry: '/remotes/home/h3/mf-manifest.json', release: 'h3' },
    blog: { entry: '/remotes/blog/b9/mf-manifest.json', release: 'b9' },
    forms: { entry: '/remotes/forms/f1/mf-manifest.json', release: 'f1' },
    staff: { entry: '/remotes/staff/s1/mf-manifest.json', release: 's1' },
  },
};

/** Puts REMOTES_IN_PAGE in the document, as the server does. */
export function putRemotesInPage(): void {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = PAGE_DATA_IDS.remotes;
  script.textContent = JSON.stringify(REMOTES_IN_PAGE);
  document.head.append(script);
}

/** The share of page loads that report, as the server's meta tag says it; none without `content`. */
export function setSample(content: string | undefined): void {
  document.querySelector(`meta[name="${TELEMETRY_SAMPLE_META}"]`)?.remove();
  if (content === undefined) return;
  const meta = document.createElement('meta');
  meta.name = TELEMETRY_SAMPLE_META;
  meta.content = content;
  document.head.append(meta);
}

/** What jsdom's Blob lacks (`text()`), through its FileReader. */
export function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}
