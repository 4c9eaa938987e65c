import type { AriaLiveMessages, GroupBase } from 'react-select';

/** react-select's screen-reader announcements, in Ukrainian (its defaults are English). */
export function ukrainianAriaMessages<Option>(): AriaLiveMessages<Option, false, GroupBase<Option>> {
  return {
    guidance: ({ context, isSearchable, tabSelectsValue, isInitialFocus }) => {
      if (context === 'menu') {
        return `Стрілками вгору і вниз оберіть варіант, Enter — вибрати, Escape — закрити список${
          tabSelectsValue ? ', Tab — вибрати й перейти далі' : ''
        }.`;
      }
      if (context === 'input' && isInitialFocus) {
        return `${isSearchable ? 'Почніть вводити, щоб звузити список, або н' : 'Н'}атисніть стрілку вниз, щоб відкрити список.`;
      }
      return '';
    },
    onChange: ({ action, label, isDisabled }) => {
      if (action === 'select-option') return isDisabled ? `Варіант ${label} недоступний.` : `Вибрано: ${label}.`;
      if (action === 'clear' || action === 'remove-value' || action === 'pop-value') return 'Вибір скасовано.';
      return '';
    },
    onFocus: ({ context, label, isSelected, options, focused }) => {
      if (context !== 'menu') return '';
      const position = `${options.indexOf(focused) + 1} з ${options.length}`;
      return `${label}${isSelected ? ', вибрано' : ''}, ${position}.`;
    },
    onFilter: ({ inputValue, resultsMessage }) =>
      `${resultsMessage}${inputValue ? ` за запитом «${inputValue}»` : ''}.`,
  };
}

/** Announced as the list is filtered: "3 варіанти". */
export function resultsStatus({ count }: { count: number }): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (lastTwo >= 11 && lastTwo <= 14) return `${count} варіантів`;
  if (last === 1) return `${count} варіант`;
  if (last >= 2 && last <= 4) return `${count} варіанти`;
  return `${count} варіантів`;
}
