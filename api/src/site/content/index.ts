/**
 * What the staff console may use of the site's content: publishing an article the way the site
 * shows it, and the checks and storage of uploaded images. The console imports content from here
 * only (a lint rule keeps it so); the rest of this folder is the site's own.
 */
export { draftFields, previewPost, publishingProblems, writeLiveVersion } from './article-publishing';
export { acceptImageBodies, preparedOrRefused, prepareUploadedImage, UPLOAD_MESSAGES } from './image-uploads';
export { keepUpload } from './media-store';
export { ICON_MESSAGES, prepareServiceIcon } from './service-icons';
