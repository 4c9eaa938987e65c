/** Placeholder until the mfe-home issue fills it in. */
export default function Team() {
  return <div data-remote-module="mfe-home/Team">Team</div>;
}
