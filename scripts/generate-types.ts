import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateSchemaTypes, GENERATED_TYPES } from './schema-types.ts';

writeFileSync(GENERATED_TYPES, await generateSchemaTypes());
console.log(`wrote ${fileURLToPath(GENERATED_TYPES)}`);
