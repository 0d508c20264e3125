/**
 * Where the mail reader's thread starts (parse-thread.ts). A worker thread does not inherit the
 * TypeScript loader its process was started with (`tsx server/server.ts`, vitest), so it registers tsx
 * for itself before it loads the reader, which is TypeScript like the rest of the server.
 */
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
