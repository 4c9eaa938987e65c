import { useEffect, useRef } from 'react';
import { isPreviewMessage, previewContentMessage, STAFF_PREVIEW_WIDTHS, staffPreviewPath, type StaffPreviewContent, type StaffPreviewKind } from '@agency/shared';
import styles from './preview.module.css';

/** How wide each framed page is drawn in the console: a phone's at 60 %, a desktop's at about a third. */
const SHOWN_WIDTH: Record<number, number> = { 375: 225, 1280: 448 };

/**
 * What is being edited as visitors will see it, at a phone's and a desktop's width side by side:
 * each frame is the shell's preview page, drawing `content` with the released remote that draws
 * it on the site. A frame that has loaded says so and is sent the content, again on every change.
 */
export function PreviewFrames({ kind, content }: { kind: StaffPreviewKind; content: StaffPreviewContent | undefined }) {
  const frames = useRef<(HTMLIFrameElement | null)[]>([]);
  const ready = useRef(new Set<Window>());
  const latest = useRef(content);
  latest.current = content;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isPreviewMessage(event.data) || !('ready' in event.data)) return;
      const frame = frames.current.find((candidate) => candidate?.contentWindow === event.source);
      if (!frame?.contentWindow) return;
      ready.current.add(frame.contentWindow);
      if (latest.current) frame.contentWindow.postMessage(previewContentMessage(latest.current), window.location.origin);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (!content) return;
    for (const frame of frames.current) {
      const target = frame?.contentWindow;
      if (target && ready.current.has(target)) target.postMessage(previewContentMessage(content), window.location.origin);
    }
  }, [content]);

  return (
    <div className={styles.previews}>
      {STAFF_PREVIEW_WIDTHS.map(({ name, width, height }, index) => {
        const scale = (SHOWN_WIDTH[width] ?? width) / width;
        return (
          <figure key={name} className={styles.preview}>
            <figcaption className={styles.caption}>
              {name}, {width} px
            </figcaption>
            <div className={styles.viewport} style={{ width: width * scale, height: height * scale }}>
              <iframe
                ref={(element) => {
                  frames.current[index] = element;
                }}
                className={styles.frame}
                title={`Попередній перегляд: ${name.toLowerCase()}, ${width} px`}
                src={staffPreviewPath(kind)}
                style={{ width, height, transform: `scale(${scale})` }}
                data-testid={`preview-${width}`}
              />
            </div>
          </figure>
        );
      })}
    </div>
  );
}
