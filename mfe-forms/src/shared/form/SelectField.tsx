import Select, { type ClassNamesConfig } from 'react-select';
import { FieldShell, errorIdFor } from './FieldShell';
import { resultsStatus, ukrainianAriaMessages } from './select-aria-messages';
import { cx } from './class-names';
import { useHydrated } from './use-hydrated';
import styles from './SelectField.module.css';
import formStyles from './Form.module.css';

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

const PLACEHOLDER = 'Оберіть…';
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
 * In the server's markup, and until the form's script has taken it over, it is the browser's own
 * <select> of the same size: usable with no script at all, and with none of react-select's
 * run-time styles in the page.
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
  const hydrated = useHydrated();
  // Controlled: `null` when the value is empty, which is how a reset clears the dropdown.
  const selected = options.find((option) => option.value === value) ?? null;
  if (!hydrated) {
    return (
      <FieldShell controlId={id} label={label} required={required} error={error} wide>
        <select
          id={id}
          name={name}
          required={required}
          value={value}
          onChange={(event) => onChange(event.target.value as T | '')}
          // The text fields' box, which is also react-select's control's size.
          className={formStyles.control}
          aria-invalid={error ? true : undefined}
          aria-errormessage={error ? errorIdFor(id) : undefined}
        >
          <option value="">{PLACEHOLDER}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </FieldShell>
    );
  }
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
        placeholder={PLACEHOLDER}
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
