import type { Locator, Page } from '@playwright/test';

/**
 * The product's date pickers (React Aria's DatePicker, en-GB): a group named by the field's label, holding one
 * spinbutton per part (day, month, year, then hour, minute, second) and a Calendar button.
 */
export function datePicker(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('group', { name: label, exact: true });
}

/**
 * What a picker shows, as one line: '31/12/2030, 14:05' ('dd/mm/yyyy' empty). The marks that keep the time's
 * direction apart from the date's (Unicode isolates) are left out.
 */
export async function pickerText(picker: Locator): Promise<string> {
  await picker.getByRole('spinbutton').first().waitFor();
  return ((await picker.textContent()) ?? '').replace(/[\u2066-\u2069]/g, '').trim();
}

/** The parts of a picker in the order they show: ['day', 'month', 'year', 'hour', 'minute']. */
export async function pickerParts(picker: Locator): Promise<string[]> {
  await picker.getByRole('spinbutton').first().waitFor();
  return picker
    .getByRole('spinbutton')
    .evaluateAll((parts) => parts.map((part) => part.getAttribute('data-type') ?? ''));
}

/**
 * Types a date as a person does with the keyboard, day first: '31/12/2030', '31/12/2030 14:05' or with seconds. Each
 * part moves on to the next once it is full; what a part held before is replaced.
 */
export async function typeInPicker(picker: Locator, text: string): Promise<void> {
  await picker.getByRole('spinbutton').first().click();
  await picker.page().keyboard.type(text.replace(/\D/g, ''));
}
