// The blog's server bundle (see shared/src/page/server-rendering.ts): a post page (with its related
// posts), the listing and the home page's teaser, rendered from the API's answers, with a post's
// meta, so each can be read and shared without JavaScript.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '@agency/shared/router';
import {
  BLOG_TEASER_LIMIT,
  blogListingPath,
  notFoundPageMeta,
  PAGE_ROUTES,
  provideServerData,
  type BlogListPageProps,
  type BlogPost,
  type BlogPostPageProps,
  type RemoteServerBundle,
  type ServerData,
  type SlotRender,
} from '@agency/shared';
import { blogListingApiPath, blogPostPath, relatedPostsPath } from '@agency/shared/api-client';
import { latestPostsResource } from '@agency/shared/data';
import BlogPostPage from './features/blog-post/BlogPostPage';
import BlogListPage from './features/blog-list/BlogListPage';
import BlogTeaser from './features/blog-teaser/BlogTeaser';
import { postNotFoundMeta, postPageMeta } from './features/blog-post/post-page-meta';

export const dataFor: RemoteServerBundle['dataFor'] = (module, props) => {
  if (module === 'BlogPostPage') {
    const { postId } = props as BlogPostPageProps;
    return [blogPostPath(postId), relatedPostsPath(postId)];
  }
  if (module === 'BlogListPage') return [blogListingApiPath(props as BlogListPageProps)];
  if (module === 'BlogTeaser') return [latestPostsResource(BLOG_TEASER_LIMIT).path];
  return undefined;
};

function renderPostPage({ postId }: BlogPostPageProps, data: ServerData): SlotRender {
  const html = renderToString(
    <StaticRouter location={`/blog/${encodeURIComponent(postId)}`}>
      <BlogPostPage postId={postId} />
    </StaticRouter>,
  );
  const answer = data[blogPostPath(postId)];
  if (answer?.status === 200) return { html, meta: postPageMeta(answer.body as BlogPost) };
  return { html, meta: postNotFoundMeta(postId), status: 404 };
}

function renderListPage(props: BlogListPageProps, data: ServerData): SlotRender {
  const path = blogListingPath(props);
  const html = renderToString(
    <StaticRouter location={path}>
      <BlogListPage category={props.category} page={props.page} />
    </StaticRouter>,
  );
  const status = data[blogListingApiPath(props)]?.status;
  // A page past the last (404) or an address the API refuses (400) is a page that does not
  // exist; otherwise the shell's listing meta stands.
  if (status === 404 || status === 400) return { html, meta: notFoundPageMeta(path), status: 404 };
  return { html };
}

export const renderSlot: RemoteServerBundle['renderSlot'] = (module, props, data) => {
  provideServerData(data);
  if (module === 'BlogPostPage') return renderPostPage(props as BlogPostPageProps, data);
  if (module === 'BlogListPage') return renderListPage(props as BlogListPageProps, data);
  if (module === 'BlogTeaser') {
    // On the home page: its links are resolved from there.
    return {
      html: renderToString(
        <StaticRouter location={PAGE_ROUTES.home}>
          <BlogTeaser />
        </StaticRouter>,
      ),
    };
  }
  throw new Error(`The blog does not render ${module} on the server`);
};
