import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { SelectField } from './SelectField';

const OPTIONS = [
  { value: 'seo', label: 'SEO' },
  { value: 'smm', label: 'SMM' },
] as const;

function ServiceField() {
  const [value, setValue] = useState<'seo' | 'smm' | ''>('');
  return <SelectField id="service" name="service_type" label="Послуга" options={OPTIONS} value={value} onChange={setValue} required />;
}

describe('SelectField', () => {
  it('is the browser’s own required <select> in the server’s markup, usable with no script, with no run-time styles', () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<ServiceField />);
    const select = container.querySelector('select');
    expect(select).not.toBeNull();
    expect(select!.name).toBe('service_type');
    expect(select!.required).toBe(true);
    expect([...select!.options].map((option) => [option.value, option.text])).toEqual([
      ['', 'Оберіть…'],
      ['seo', 'SEO'],
      ['smm', 'SMM'],
    ]);
    expect(container.querySelector(`label[for="service"]`)?.textContent).toContain('Послуга');
    expect(container.querySelector('style')).toBeNull();
  });

  it('becomes the searchable dropdown once the script has taken the markup over, under the same label', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<ServiceField />);
    document.body.append(container);
    await act(async () => {
      hydrateRoot(container, <ServiceField />);
    });
    expect(container.querySelector('select')).toBeNull();
    expect(screen.getByRole('combobox', { name: /Послуга/ })).toHaveAttribute('id', 'service');
    container.remove();
  });
});
