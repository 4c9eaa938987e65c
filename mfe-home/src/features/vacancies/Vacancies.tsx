/** Placeholder until the mfe-home issue fills it in. */
export default function Vacancies() {
  return <div data-remote-module="mfe-home/Vacancies">Vacancies</div>;
}
