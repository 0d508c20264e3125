import { schemaMessages } from '../../../common/schema/labels.ts';
import { registry } from '../../schema.ts';
import { deepMerge } from '../merge.ts';
import app from './app.ts';
import exportsMessages from './exports.ts';
import list from './list.ts';
import ra from './ra.ts';

/** The whole message tree of one language, Dutch (the default): a chunk of its own, loaded when it is the one shown. */
export default deepMerge(ra, schemaMessages(registry, 'nl'), app, list, exportsMessages);
