// @vitest-environment jsdom
/**
 * The forms' typed inputs (SPEC 5) in a real react-admin form: time entry keeps '1:30' as typed and stores
 * 90 minutes; numeric-only input drops letters, turns a comma into a dot and keeps '12.50' while typing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, SaveButton, SimpleForm, Toolbar, memoryStore } from 'react-admin';
import {
  MinutesInput,
  NumericInput,
  minutesValue,
  numericValue,
} from '../../src/custom/forms/TypedInputs.tsx';
import { createI18nProvider } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';

afterEach(cleanup);

describe('typed values', () => {
  it('time entry: hh:mm and plain minutes become minutes; anything else stays text', () => {
    expect(minutesValue('1:30')).toBe(90);
    expect(minutesValue(' 45 ')).toBe(45);
    expect(minutesValue('')).toBeNull();
    expect(minutesValue('1:3')).toBe('1:3');
    expect(minutesValue('abc')).toBe('abc');
  });

  it('numeric-only: digits, dot and minus; a comma is a dot; incomplete numbers stay text', () => {
    expect(numericValue('12,5')).toBe(12.5);
    expect(numericValue('1a2b')).toBe(12);
    expect(numericValue('-3')).toBe(-3);
    expect(numericValue('-')).toBe('-');
    expect(numericValue('12.')).toBe('12.');
    expect(numericValue('€')).toBeNull();
  });
});

/** A form whose submitted values land in `sent`. */
function renderForm(children: React.ReactNode, sent: Record<string, unknown>[]) {
  return render(
    <AdminContext i18nProvider={createI18nProvider({ messages })} store={memoryStore()}>
      <SimpleForm
        onSubmit={(data: Record<string, unknown>) => void sent.push(data)}
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        {children}
      </SimpleForm>
    </AdminContext>,
  );
}

describe('inputs in a form', () => {
  it('time entry keeps what is typed and sends minutes', async () => {
    const sent: Record<string, unknown>[] = [];
    renderForm(<MinutesInput source="time_spent" label="Tijd" />, sent);
    const input = screen.getByLabelText('Tijd') as HTMLInputElement;
    for (const text of ['1', '1:', '1:3', '1:30']) fireEvent.change(input, { target: { value: text } });
    expect(input.value).toBe('1:30');
    fireEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(sent).toEqual([{ time_spent: 90 }]));
  });

  it('numeric-only input ignores letters, keeps a trailing zero and sends a number', async () => {
    const sent: Record<string, unknown>[] = [];
    renderForm(<NumericInput source="price" label="Prijs" />, sent);
    const input = screen.getByLabelText('Prijs') as HTMLInputElement;
    for (const text of ['1', '1a', '12', '12,', '12,5', '12,50'])
      fireEvent.change(input, { target: { value: text } });
    expect(input.value).toBe('12.50');
    fireEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(sent).toEqual([{ price: 12.5 }]));
  });
});
