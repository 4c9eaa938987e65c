/** Placeholder until the mfe-forms issue fills it in. */
export default function ContactForm() {
  return <div data-remote-module="mfe-forms/ContactForm">ContactForm</div>;
}
