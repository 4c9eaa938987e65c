import { PAGE_DATA_IDS, type RemotesDocument } from '@agency/shared';

/** For the telemetry tests: the remotes document a server-rendered page carries, with each app's release. */
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
