/** Placeholder until the mfe-home issue fills it in. */
export default function ContactDetails() {
  return <div data-remote-module="mfe-home/ContactDetails">ContactDetails</div>;
}
