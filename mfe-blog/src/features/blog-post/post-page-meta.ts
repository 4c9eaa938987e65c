import { BRAND, POST_NOT_FOUND_TEXT, type BlogPost, type PageImage, type PageMeta } from '@agency/shared';

const postPath = (postId: string) => `/blog/${encodeURIComponent(postId)}`;

/**
 * Link previews need a raster picture: the content sync serves every SVG cover (1200×630) with a
 * JPEG twin of the same name beside it; other formats are used as they are.
 */
function shareImage(post: BlogPost): PageImage {
  return {
    url: post.image_url.replace(/\.svg$/i, '.jpg'),
    width: 1200,
    height: 630,
    alt: `Ілюстрація до статті «${post.title}»`,
  };
}

/** The post page's title, description and link preview, in the browser tab and in the server's <head>. */
export function postPageMeta(post: BlogPost): PageMeta {
  return {
    title: `${post.title} — блог агенції «${BRAND.name}»`,
    description: post.excerpt,
    path: postPath(String(post.id)),
    type: 'article',
    image: shareImage(post),
    article: {
      publishedTime: post.created_at,
      modifiedTime: post.updated_at ?? post.created_at,
      author: post.author,
      section: post.category,
    },
  };
}

export function postNotFoundMeta(postId: string): PageMeta {
  return {
    title: `${POST_NOT_FOUND_TEXT} — ${BRAND.name}`,
    description: 'Такої статті в блозі немає: можливо, посилання застаріло.',
    path: postPath(postId),
    type: 'website',
    noindex: true,
  };
}
