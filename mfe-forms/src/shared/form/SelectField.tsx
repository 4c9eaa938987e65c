import Select, { type ClassNamesConfig } from 'react-select';
import { FieldShell, errorIdFor } from './FieldShell';
import { resultsStatus, ukrainianAriaMessages } from './select-aria-messages';
import { cx } from './class-names';
import styles from './SelectField.module.css';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

interface SelectFieldProps<T extends string> {
  id: string;
  name: string;
  label: string;
  options: readonly SelectOption<T>[];
  /** '' when nothing is chosen. */
  value: T | '';
  onChange: (value: T | '') => void;
  required?: boolean;
  error?: string;
}

const noOptionsMessage = () => 'Нічого не знайдено';
const ariaLiveMessages = ukrainianAriaMessages<SelectOption<string>>();

// Layout-only base styles stay (`unstyled`); everything visible comes from the CSS module.
const classNames: ClassNamesConfig<SelectOption<string>, false> = {
  container: () => cx(styles.container),
  control: ({ isFocused, menuIsOpen }) =>
    cx(styles.control, isFocused && styles.controlFocused, menuIsOpen && styles.controlOpen),
  valueContainer: () => cx(styles.valueContainer),
  placeholder: () => cx(styles.placeholder),
  singleValue: () => cx(styles.singleValue),
  input: () => cx(styles.input),
  indicatorsContainer: () => cx(styles.indicators),
  dropdownIndicator: ({ selectProps }) =>
    cx(styles.dropdownIndicator, selectProps.menuIsOpen && styles.dropdownIndicatorOpen),
  clearIndicator: () => cx(styles.clearIndicator),
  menu: () => cx(styles.menu),
  menuList: () => cx(styles.menuList),
  option: ({ isFocused, isSelected }) =>
    cx(styles.option, isFocused && styles.optionFocused, isSelected && styles.optionSelected),
  noOptionsMessage: () => cx(styles.noOptions),
};

/**
 * A labelled react-select. Its `required` renders a hidden required input while nothing is chosen,
 * so the browser's own validation blocks the submit just as for the text fields.
 */
export function SelectField<T extends string>({
  id,
  name,
  label,
  options,
  value,
  onChange,
  required,
  error,
}: SelectFieldProps<T>) {
  // Controlled: `null` when the value is empty, which is how a reset clears the dropdown.
  const selected = options.find((option) => option.value === value) ?? null;
  return (
    <FieldShell controlId={id} label={label} required={required} error={error} wide>
      <Select<SelectOption<T>, false>
        inputId={id}
        instanceId={id}
        name={name}
        required={required}
        options={options}
        value={selected}
        onChange={(option) => onChange(option ? option.value : '')}
        placeholder="Оберіть…"
        noOptionsMessage={noOptionsMessage}
        ariaLiveMessages={ariaLiveMessages}
        screenReaderStatus={resultsStatus}
        isClearable={!required}
        isSearchable
        // The default blurs on select wherever TouchEvent exists (desktop Chromium too), which
        // drops keyboard users back to the top of the page.
        blurInputOnSelect={false}
        unstyled
        classNamePrefix="select"
        classNames={classNames as unknown as ClassNamesConfig<SelectOption<T>, false>}
        aria-invalid={error ? true : undefined}
        aria-errormessage={error ? errorIdFor(id) : undefined}
      />
    </FieldShell>
  );
}
