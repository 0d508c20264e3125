import type { SeedContext } from './context.ts';
import type { People } from './people.ts';

/**
 * A ticket shared with a colleague (issue 39): at De Vries Installaties, one of its company admin's
 * tickets is shared with the member, so the demo shows a share (Jansen BV's member, whom the tests
 * follow, keeps seeing only her own tickets).
 */
export async function seedTicketShares(ctx: SeedContext, people: People): Promise<void> {
  const [admin, member] = people.clientsOf[1] ?? [];
  const companyId = people.companyIds[1];
  if (!admin || !member || companyId === undefined) return;
  const ticket = await ctx.db
    .selectFrom('tickets')
    .select('id')
    .where('company_id', '=', companyId)
    .where('client_id', '=', admin.id)
    .where('is_template', '=', false)
    .orderBy('id')
    .executeTakeFirst();
  if (!ticket) return;
  await ctx.list('ticket_shares', [
    { ticket_id: ticket.id, company_id: companyId, user_id: member.id, created_by: admin.id },
  ]);
}
