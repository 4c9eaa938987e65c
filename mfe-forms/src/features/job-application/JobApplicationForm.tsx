/** Placeholder until the mfe-forms issue fills it in. */
export default function JobApplicationForm() {
  return <div data-remote-module="mfe-forms/JobApplicationForm">JobApplicationForm</div>;
}
