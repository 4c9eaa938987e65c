/**
 * An inline picture uploaded in the console is served as `<slug>.<hash>.<width>x<height>.jpg`:
 * its size in its name lets an article's HTML reserve the picture's space before it loads, with
 * nothing to look up. No dependencies: the Markdown renderer reads it.
 */

const SIZE_IN_NAME = /^\/media\/posts\/[A-Za-z0-9][A-Za-z0-9._-]*\.(\d{1,5})x(\d{1,5})\.jpg$/;

export function inlineImageName(slug: string, hash: string, width: number, height: number): string {
  return `${slug}.${hash}.${width}x${height}.jpg`;
}

/** The size an uploaded inline picture's URL names; undefined for any other image. */
export function sizeFromImageUrl(src: string): { width: number; height: number } | undefined {
  const match = SIZE_IN_NAME.exec(src);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}
