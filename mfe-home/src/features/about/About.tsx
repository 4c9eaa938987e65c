/** Placeholder until the mfe-home issue fills it in. */
export default function About() {
  return <div data-remote-module="mfe-home/About">About</div>;
}
