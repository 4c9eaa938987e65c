/** Placeholder until the mfe-blog issue fills it in. */
export default function BlogPostPage() {
  return <div data-remote-module="mfe-blog/BlogPostPage">BlogPostPage</div>;
}
