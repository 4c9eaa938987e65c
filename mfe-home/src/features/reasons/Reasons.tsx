/** Placeholder until the mfe-home issue fills it in. */
export default function Reasons() {
  return <div data-remote-module="mfe-home/Reasons">Reasons</div>;
}
