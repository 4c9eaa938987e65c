import type { BlogPost, Service } from '../contracts/types';

/**
 * The staff console's previews: a page of the shell (`/staff/preview/<kind>`), framed by the
 * console at a phone's and a desktop's width, that draws what the console sends it with the
 * released remote that draws it for visitors. The frame says it is ready; the console then sends
 * what to draw, again on every change. Both sides accept only their own origin's messages.
 */
export const STAFF_PREVIEW_KINDS = ['article', 'services'] as const;
export type StaffPreviewKind = (typeof STAFF_PREVIEW_KINDS)[number];

export const STAFF_PREVIEW_PATH = '/staff/preview';

export function staffPreviewPath(kind: StaffPreviewKind): string {
  return `${STAFF_PREVIEW_PATH}/${kind}`;
}

/** The widths the console previews at: a phone and a desktop, side by side. */
export const STAFF_PREVIEW_WIDTHS = [
  { name: 'Телефон', width: 375, height: 812 },
  { name: 'Компʼютер', width: 1280, height: 900 },
] as const;

const MESSAGE = 'agency-staff-preview';

export type StaffPreviewContent = { kind: 'article'; post: BlogPost } | { kind: 'services'; services: Service[] };
export type StaffPreviewMessage = ({ type: typeof MESSAGE } & StaffPreviewContent) | { type: typeof MESSAGE; kind: StaffPreviewKind; ready: true };

export function previewContentMessage(content: StaffPreviewContent): StaffPreviewMessage {
  return { type: MESSAGE, ...content };
}

export function previewReadyMessage(kind: StaffPreviewKind): StaffPreviewMessage {
  return { type: MESSAGE, kind, ready: true };
}

/** A message of the preview protocol (anything else a window receives is ignored). */
export function isPreviewMessage(data: unknown): data is StaffPreviewMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === MESSAGE;
}
