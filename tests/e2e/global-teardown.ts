import { readFileSync } from 'node:fs';
import { STATE_FILE } from './global-setup.ts';
import { stopServer } from './server.ts';

export default async function globalTeardown() {
  await stopServer(JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { pid: number; dataDir: string });
}
