import { useEffect, useState } from 'react';
import { isPreviewMessage, previewReadyMessage, STAFF_PREVIEW_KINDS, type PageMeta, type StaffPreviewContent, type StaffPreviewKind } from '@agency/shared';
import { useParams } from '@agency/shared/router';
import frameStyles from '../../frame/layout/page-frame.module.css';
import postStyles from '../blog/BlogPostRoute.module.css';
import homeStyles from '../home/HomePage.module.css';
import { RemoteSlot } from '../../frame/federation/remote-slot';
import { SiteFooter } from '../../frame/layout/SiteFooter';
import { SiteHeader } from '../../frame/layout/SiteHeader';
import { usePageMeta } from '../../frame/page/page-render-context';

const PREVIEW_META: PageMeta = { title: 'Попередній перегляд', description: '', path: '/staff/preview', type: 'website', noindex: true };

/** What the console sent to draw, once it has; only from the window that frames this page, on this origin. */
function usePreviewContent(kind: StaffPreviewKind): StaffPreviewContent | undefined {
  const [content, setContent] = useState<StaffPreviewContent>();
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== window.parent || !isPreviewMessage(event.data)) return;
      const message = event.data;
      if (message.kind === kind && !('ready' in message)) setContent(message);
    };
    window.addEventListener('message', onMessage);
    if (window.parent !== window) window.parent.postMessage(previewReadyMessage(kind), window.location.origin);
    return () => window.removeEventListener('message', onMessage);
  }, [kind]);
  return content;
}

/**
 * `/staff/preview/<kind>`: what the staff console is editing, drawn in the public page's frame by
 * the released remote that draws it for visitors (the blog's post view, the home page's services
 * section). The console frames this page at a phone's and a desktop's width.
 */
export function StaffPreviewRoute() {
  usePageMeta(PREVIEW_META);
  const { kind = '' } = useParams();
  const known = (STAFF_PREVIEW_KINDS as readonly string[]).includes(kind) ? (kind as StaffPreviewKind) : undefined;
  const content = usePreviewContent(known ?? 'article');
  let body;
  if (!known) body = <p>Такого попереднього перегляду немає.</p>;
  else if (!content) body = <p role="status">Попередній перегляд готується…</p>;
  else if (content.kind === 'article') {
    body = (
      <div className={postStyles.container}>
        <RemoteSlot id="blog/BlogPostPreview" props={{ post: content.post }} minHeight="60vh" />
      </div>
    );
  } else {
    body = (
      <section className={homeStyles.sectionAlt} aria-label="Послуги">
        <RemoteSlot id="home/ServicesPreview" props={{ services: content.services }} minHeight="720px" />
      </section>
    );
  }
  return (
    <div className={frameStyles.page}>
      <SiteHeader />
      <main id="main" className={frameStyles.main}>
        {body}
      </main>
      <SiteFooter />
    </div>
  );
}
