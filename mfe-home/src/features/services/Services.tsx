/** Placeholder until the mfe-home issue fills it in. */
export default function Services() {
  return <div data-remote-module="mfe-home/Services">Services</div>;
}
