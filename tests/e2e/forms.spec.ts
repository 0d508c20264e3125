/**
 * The forms' shared blocks in the back office (SPEC 5 and 9): time entry as hh:mm stored as minutes, the
 * date-time picker (5-minute steps, 'D MMMM HH:mm' shown), numeric-only input, search selectors that
 * start after 2 characters with a hint of the letters still needed, and custom fields with their red
 * asterisk, saved with the record and shown on its detail screen.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

/** GET /api/... as the signed-in user (the app's bearer token). */
async function apiGet(page: Page, path: string) {
  const token = await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'));
  const response = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return response.json();
}

test('an operator enters time as 1:30 and picks a date-time: 90 minutes and a 5-minute step are stored', async ({
  page,
}) => {
  await signIn(page, 'admin@example.com', 'backoffice', { to: '/time-registrations/create' });
  await expect(page.getByRole('heading', { level: 1, name: 'Urenregistratie aanmaken' })).toBeVisible();

  const time = page.getByLabel('Bestede tijd');
  await time.pressSequentially('1:30', { delay: 30 });
  // The text stays as typed (formatting it on every keystroke would make '1' into '00:01').
  await expect(time).toHaveValue('1:30');

  await page.getByRole('button', { name: 'Kies datum' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('listbox', { name: 'Selecteer minuten' }).getByRole('option')).toHaveCount(
    12,
  );
  await expectAccessible(page, 'time registration form with the picker open');
  await dialog.getByRole('gridcell', { name: '15', exact: true }).click();
  await dialog.getByRole('option', { name: '10 uren' }).click();
  await dialog.getByRole('option', { name: '35 minuten' }).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('group', { name: 'Uitgevoerd op' })).toContainText(/15 \p{L}+ 10:35/u);

  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/time-registrations',
  );
  await page.getByRole('button', { name: 'Opslaan' }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const { id } = await response.json();
  await expect(page).toHaveURL(new RegExp(`/time-registrations/${id}$`));

  const stored = await apiGet(page, `/time-registrations/${id}`);
  expect(stored.time_spent).toBe(90);
  const at = new Date(stored.executed_at);
  expect(at.getUTCMinutes() % 5).toBe(0);
  expect(at.getUTCSeconds()).toBe(0);
  const wallClock = new Intl.DateTimeFormat('nl', {
    timeZone: 'Europe/Amsterdam',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  expect(wallClock).toMatch(/^15,? 10:35$/);
  // The detail shows the minutes as HH:MM (the rounded time, a field of its own, says 01:30 too).
  const spent = page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: /^Bestede tijd$/ }) })
    .locator('dd');
  await expect(spent).toHaveText('01:30');
});

test('numeric-only input ignores letters and turns a comma into a dot', async ({ page }) => {
  await signIn(page, 'admin@example.com', 'backoffice', { to: '/products/create' });
  const price = page.getByLabel('Verkoopprijs');
  await price.pressSequentially('1a2,5€0', { delay: 20 });
  await expect(price).toHaveValue('12.50');
});

test('the back-office ticket form: a search selector hints until 2 characters, a required custom field is asked and saved', async ({
  page,
}) => {
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  // At 375 px the picker opens as a dialog (its calendar and time columns do not fit in a popup).
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/tickets/create');
  await page.getByRole('button', { name: 'Kies datum' }).click();
  const pickerDialog = page.getByRole('dialog');
  await expect(pickerDialog.getByRole('button', { name: 'OK' })).toBeInViewport();
  await expectAccessible(page, 'back-office ticket form at 375 px with the picker open');
  await pickerDialog.getByRole('button', { name: 'Resetten' }).click();
  await expect(pickerDialog).toBeHidden();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Ticket aanmaken' })).toBeVisible();

  const company = page.getByRole('combobox', { name: 'Bedrijf' });
  await company.click();
  await expect(page.getByRole('status').filter({ hasText: 'Typ nog 2 tekens' })).toBeVisible();
  await company.pressSequentially('J');
  await expect(page.getByRole('status').filter({ hasText: 'Typ nog 1 teken' })).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(0);
  await company.pressSequentially('an', { delay: 50 });
  await expect(page.getByRole('status').filter({ hasText: /Typ nog/ })).toHaveCount(0);
  await page.getByRole('option', { name: 'Jansen BV' }).click();
  await expect(company).toHaveValue('Jansen BV');

  // The custom field Impact is required: red asterisk, and the form does not go without it.
  const impactLabel = page.locator('label').filter({ hasText: 'Impact' });
  const asterisk = impactLabel.getByTestId('required-asterisk');
  await expect(asterisk).toHaveText(/\*/);
  expect(await asterisk.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(183, 28, 28)');
  await expect(
    page.locator('label').filter({ hasText: 'Kostenplaats' }).getByTestId('required-asterisk'),
  ).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Deadline' })).toBeVisible();
  await expectAccessible(page, 'back-office ticket form');

  const description = `Printer op de tweede verdieping (${Date.now()})`;
  await page.getByLabel('Omschrijving').fill(description);
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('Impact is verplicht', { exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Impact' }).click();
  await page.getByRole('option', { name: 'Afdeling' }).click();
  await page.getByLabel('Kostenplaats').fill('KP-77');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page).toHaveURL(/\/tickets\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());

  await expect(page.getByTestId('custom-field-impact')).toContainText('Afdeling');
  await expect(page.getByTestId('custom-field-kostenplaats')).toContainText('KP-77');
  const values = await apiGet(
    page,
    `/custom-values?builder[0][where][0]=morphable_type&builder[0][where][1]==&builder[0][where][2]=ticket&builder[1][where][0]=morphable_id&builder[1][where][1]==&builder[1][where][2]=${id}`,
  );
  expect(values.data.map((v: { value: string }) => v.value).sort()).toEqual(['KP-77', 'department']);

  // Editing starts from the stored values.
  await page.getByRole('button', { name: 'Bewerken' }).click();
  const costCentre = page.getByLabel('Kostenplaats');
  await expect(costCentre).toHaveValue('KP-77');
  await costCentre.fill('KP-78');
  // The first: the message form of the thread below has its own.
  await page.getByRole('button', { name: 'Opslaan' }).first().click();
  await expect(page.getByTestId('custom-field-kostenplaats')).toContainText('KP-78');
});

test("list header filters: 'me' on the operator and a schedule preset on a date column match the API", async ({
  page,
}) => {
  await signIn(page, 'admin@example.com', 'backoffice', { to: '/time-registrations' });
  const status = page.getByRole('status').filter({ hasText: / van \d+$/ });
  await expect(status).toHaveText(/^1-\d+ van \d+$/);
  const shownTotal = async () => Number((await status.textContent())!.split(' van ')[1]);
  const me = await page.evaluate(() => JSON.parse(localStorage.getItem('APP_USER') ?? '{}').id as number);
  const where = (field: string, op: string, value: string | number, i = 0) =>
    `builder[${i}][where][0]=${field}&builder[${i}][where][1]=${encodeURIComponent(op)}&builder[${i}][where][2]=${encodeURIComponent(String(value))}`;

  const everyone = await shownTotal();
  // 'me' is an option of a selector on a field with x-me; the server reads it as the caller's id.
  await page.getByRole('combobox', { name: 'Filter op Operator' }).click();
  await page.getByRole('option', { name: 'Ik', exact: true }).click();
  await page.keyboard.press('Escape');
  const mine = (await apiGet(page, `/time-registrations?${where('operator_id', '=', me)}`)).total;
  expect(mine).toBeGreaterThan(0);
  expect(mine).toBeLessThan(everyone);
  await expect.poll(shownTotal).toBe(mine);

  // '-2 dagen en eerder': up to the end of the day before yesterday, in the user's time zone.
  await page.getByLabel('Filter op Uitgevoerd op').selectOption({ label: '-2 dagen en eerder' });
  const bound = await page.evaluate(() => {
    const d = new Date();
    return new Date(d.getFullYear(), d.getMonth(), d.getDate() - 2, 23, 59, 59, 999).toISOString();
  });
  const expected = (
    await apiGet(
      page,
      `/time-registrations?${where('operator_id', '=', me)}&${where('executed_at', '<=', bound, 1)}`,
    )
  ).total;
  await expect.poll(shownTotal).toBe(expected);
  expect(expected).toBeLessThanOrEqual(mine);
});
