import { messagesOfFiles } from '../../../common/schema/label-split.ts';
import { deepMerge } from '../merge.ts';
import app from './app.ts';
import dashboardMessages from './dashboard.ts';
import ticketTimeMessages from './ticketTime.ts';
import balanceMessages from './balance.ts';
import slaMessages from './sla.ts';
import validityMessages from './validity.ts';
import firstRunMessages from './firstRun.ts';
import liveMessages from './live.ts';
import exportsMessages from './exports.ts';
import reportsMessages from './reports.ts';
import serviceOverviewMessages from './serviceOverview.ts';
import macrosMessages from './macros.ts';
import knowledgeMessages from './knowledge.ts';
import apiTokensMessages from './apiTokens.ts';
import surveyMessages from './survey.ts';
import list from './list.ts';
import ra from './ra.ts';
import workspace from './workspace.ts';

// The schemas' words in this language only (the build leaves the others out of these imports, and all
// of them out of the registry's copy of the schemas: common/schema/label-split.ts).
const schemaFiles = import.meta.glob<Record<string, any>>('../../../schemas/*.json', {
  eager: true,
  import: 'default',
  query: '?labels=en',
});

/** The whole message tree of one language, English: a chunk of its own, loaded when it is the one shown. */
export default deepMerge(
  ra,
  messagesOfFiles(schemaFiles, 'en'),
  app,
  list,
  exportsMessages,
  reportsMessages,
  serviceOverviewMessages,
  macrosMessages,
  knowledgeMessages,
  apiTokensMessages,
  surveyMessages,
  dashboardMessages,
  ticketTimeMessages,
  balanceMessages,
  slaMessages,
  validityMessages,
  firstRunMessages,
  liveMessages,
  workspace,
);
