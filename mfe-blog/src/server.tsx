// The blog's server bundle (see shared/src/page/server-rendering.ts): a post page rendered from
// the API's answer, with its meta, so a post can be read and shared without JavaScript.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '@agency/shared/router';
import { provideServerData, type BlogPost, type BlogPostPageProps, type RemoteServerBundle } from '@agency/shared';
import { blogPostPath } from '@agency/shared/api-client';
import BlogPostPage from './features/blog-post/BlogPostPage';
import { postNotFoundMeta, postPageMeta } from './features/blog-post/post-page-meta';

export const dataFor: RemoteServerBundle['dataFor'] = (module, props) =>
  module === 'BlogPostPage' ? [blogPostPath((props as BlogPostPageProps).postId)] : undefined;

export const renderSlot: RemoteServerBundle['renderSlot'] = (module, props, data) => {
  if (module !== 'BlogPostPage') throw new Error(`The blog does not render ${module} on the server`);
  const { postId } = props as BlogPostPageProps;
  provideServerData(data);
  const html = renderToString(
    <StaticRouter location={`/blog/${encodeURIComponent(postId)}`}>
      <BlogPostPage postId={postId} />
    </StaticRouter>,
  );
  const answer = data[blogPostPath(postId)];
  if (answer?.status === 200) return { html, meta: postPageMeta(answer.body as BlogPost) };
  return { html, meta: postNotFoundMeta(postId), status: 404 };
};
