import type { ResourceFolder } from '../folder-contract.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { WakeLoop } from '../../system/wake-loop.ts';
import { recurringTicketHooks } from './hooks.ts';
import { makeDueTickets } from './run.ts';

/**
 * The pass that makes due recurring tickets (./run.ts), on its own loop every DEADLINE_CHECK_MS (a
 * minute), as the scheduled reports: started when the app is ready, stopped on close.
 */
const recurringLoop: ActionPlugin = async (app, { db, registry, config }) => {
  const loop = new WakeLoop(
    async () => {
      await makeDueTickets(
        {
          db,
          registry,
          failed: (error, id) => app.log.error({ err: error, schedule: id }, 'recurring ticket not made'),
        },
        new Date(),
        () => loop.isStopped,
      );
    },
    config.deadlineCheckMs,
    (error) => app.log.error({ err: error }, 'recurring tickets: lost its database'),
  );
  app.addHook('onReady', async () => {
    if (config.deadlineCheckMs > 0) loop.start();
  });
  app.addHook('onClose', async () => loop.stop());
};

export default {
  hooks: { 'recurring-tickets': recurringTicketHooks },
  actions: [recurringLoop],
} satisfies ResourceFolder;
