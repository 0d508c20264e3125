/**
 * Buying a prepaid card (POST /api/contracts/{id}/buy): the card's hours go onto a prepaid contract of a
 * company the caller may see, in one transaction with a purchase record; racing buys both count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe.each(targets)('prepaid cards on $name', (target) => {
  let t: TestApp;
  let client: Record<string, string>;
  let otherClient: Record<string, string>;
  let operator: Record<string, string>;
  let prepaidId: number;
  let periodContractId: number;
  let otherPrepaidId: number;
  let card: { id: number; hours: number; price: number };
  let clientId: number;

  const contractsOf = (email: string) =>
    t.db
      .selectFrom('contracts as k')
      .innerJoin('company_contract as cc', 'cc.contract_id', 'k.id')
      .innerJoin('company_user as cu', 'cu.company_id', 'cc.company_id')
      .innerJoin('users as u', 'u.id', 'cu.user_id')
      .select(['k.id', 'k.period'])
      .where('u.email', '=', email)
      .orderBy('k.id')
      .execute();
  const remaining = async (id: number) =>
    (await t.db
      .selectFrom('contracts')
      .select(['minutes_remaining', 'quantity'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()) as { minutes_remaining: number; quantity: number };
  const buy = (id: number, headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/contracts/${id}/buy`, headers, payload: payload as object });

  beforeAll(async () => {
    t = await buildTestApp(target);
    const own = await contractsOf('client@example.com');
    prepaidId = Number(own.find((c) => c.period === 'none')!.id);
    periodContractId = Number(own.find((c) => c.period !== 'none')!.id);
    otherPrepaidId = Number((await contractsOf('other@example.com')).find((c) => c.period === 'none')!.id);
    const row = await t.db
      .selectFrom('prepaid_cards')
      .select(['id', 'hours', 'price'])
      .where('description', '=', 'Strippenkaart 10 uur')
      .executeTakeFirstOrThrow();
    card = { id: Number(row.id), hours: Number(row.hours), price: Number(row.price) };
    clientId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'client@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    client = await t.as('client@example.com');
    otherClient = await t.as('other@example.com');
    operator = await t.as('admin@example.com');
  });
  afterAll(() => t?.close());

  it("a client buys a card onto its company's prepaid contract: remaining goes up by the card's hours", async () => {
    const before = await remaining(prepaidId);
    const period = await t.db
      .selectFrom('contract_periods')
      .select(['id', 'minutes_remaining', 'minutes_total'])
      .where('contract_id', '=', prepaidId)
      .orderBy('period_start', 'desc')
      .executeTakeFirstOrThrow();
    const res = await buy(prepaidId, client, { prepaid_card_id: card.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(prepaidId);
    expect(res.json().minutes_remaining).toBe(before.minutes_remaining + card.hours * 60);
    expect(Number(res.json().quantity)).toBe(Number(before.quantity) + card.hours);
    const after = await t.db
      .selectFrom('contract_periods')
      .select(['minutes_remaining', 'minutes_total'])
      .where('id', '=', period.id)
      .executeTakeFirstOrThrow();
    expect(after.minutes_remaining).toBe(period.minutes_remaining + card.hours * 60);
    expect(after.minutes_total).toBe(period.minutes_total + card.hours * 60);
    const purchases = await t.db
      .selectFrom('prepaid_purchases')
      .selectAll()
      .where('contract_id', '=', prepaidId)
      .execute();
    expect(purchases).toHaveLength(1);
    expect(Number(purchases[0]!.prepaid_card_id)).toBe(card.id);
    expect(Number(purchases[0]!.hours)).toBe(card.hours);
    expect(Number(purchases[0]!.price)).toBe(card.price);
    expect(Number(purchases[0]!.user_id)).toBe(clientId);
  });

  it('a contract with hours per period is no prepaid card: 422', async () => {
    const before = await remaining(periodContractId);
    const res = await buy(periodContractId, client, { prepaid_card_id: card.id });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('Only a prepaid contract can be topped up with a prepaid card.');
    expect(await remaining(periodContractId)).toEqual(before);
  });

  it("another company's contract is 404", async () => {
    const before = await remaining(otherPrepaidId);
    expect((await buy(otherPrepaidId, client, { prepaid_card_id: card.id })).statusCode).toBe(404);
    expect((await buy(prepaidId, otherClient, { prepaid_card_id: card.id })).statusCode).toBe(404);
    expect(await remaining(otherPrepaidId)).toEqual(before);
  });

  it.each([
    ['an unknown card', { prepaid_card_id: 999999 }],
    ['a card id that is no number', { prepaid_card_id: 'abc' }],
    ['no card', {}],
  ])('%s is a 422 on prepaid_card_id', async (_label, payload) => {
    const before = await remaining(prepaidId);
    const res = await buy(prepaidId, client, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toHaveProperty('prepaid_card_id');
    expect(await remaining(prepaidId)).toEqual(before);
  });

  const REQUIRED = { prepaid_card_id: ['The prepaid_card_id field is required.'] };
  const INVALID = { prepaid_card_id: ['The selected prepaid card is invalid.'] };
  it.each<[string, unknown, Record<string, string[]>]>([
    ['no card', {}, REQUIRED],
    ['a null card', { prepaid_card_id: null }, REQUIRED],
    ['an empty card', { prepaid_card_id: '' }, REQUIRED],
    ['a card id that is no number', { prepaid_card_id: 'abc' }, INVALID],
    ['a card id of 0', { prepaid_card_id: 0 }, INVALID],
    ['a card id that is no whole number', { prepaid_card_id: 1.5 }, INVALID],
    ['a card id past the largest id', { prepaid_card_id: 2147483648 }, INVALID],
    ['a card id that is true', { prepaid_card_id: true }, INVALID],
    ['a card id as text', { prepaid_card_id: '5' }, INVALID],
    [
      'an unknown field besides',
      { prepaid_card_id: 1, other: 1 },
      { other: ['The field other is not allowed.'] },
    ],
  ])('%s: the exact 422', async (_label, payload, errors) => {
    const res = await buy(prepaidId, client, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message: Object.values(errors)[0]![0], errors });
  });

  it('an unknown card says the spec text', async () => {
    const res = await buy(prepaidId, client, { prepaid_card_id: 999999 });
    expect(res.json().errors.prepaid_card_id).toEqual(['The selected prepaid card is invalid.']);
  });

  it('a card of another tenant is invalid', async () => {
    const tenant = await t.db
      .insertInto('tenants')
      .values({ slug: 'elders', name: 'Elders' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const foreign = await t.db
      .insertInto('prepaid_cards')
      .values({ tenant_id: tenant.id, description: 'Vreemd', hours: 100, price: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await buy(prepaidId, client, { prepaid_card_id: foreign.id });
    expect(res.statusCode).toBe(422);
  });

  it('two buys racing are both counted exactly once', async () => {
    const before = await remaining(prepaidId);
    const count = async () =>
      (await t.db.selectFrom('prepaid_purchases').select('id').where('contract_id', '=', prepaidId).execute())
        .length;
    const purchasesBefore = await count();
    const results = await Promise.all([
      buy(prepaidId, client, { prepaid_card_id: card.id }),
      buy(prepaidId, operator, { prepaid_card_id: card.id }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const after = await remaining(prepaidId);
    expect(after.minutes_remaining).toBe(before.minutes_remaining + 2 * card.hours * 60);
    expect(Number(after.quantity)).toBe(Number(before.quantity) + 2 * card.hours);
    expect(await count()).toBe(purchasesBefore + 2);
  });
});
