/** Placeholder until the mfe-home issue fills it in. */
export default function Hero() {
  return <div data-remote-module="mfe-home/Hero">Hero</div>;
}
