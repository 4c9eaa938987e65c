/** Placeholder until the mfe-blog issue fills it in. */
export default function BlogTeaser() {
  return <div data-remote-module="mfe-blog/BlogTeaser">BlogTeaser</div>;
}
