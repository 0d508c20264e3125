/**
 * `npm run setup` and `npm run tenant:create` (`--another`): server/setup/cli.ts does the work; this file
 * is the terminal around it, which asks for the password without showing it.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { runSetupCommand } from '../server/setup/cli.ts';

function askPassword(prompt: string): Promise<string | undefined> {
  if (!process.stdin.isTTY) return Promise.resolve(undefined);
  process.stdout.write(prompt);
  // What is typed goes to a stream that shows nothing.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: silent, terminal: true });
  return new Promise((resolve) =>
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    }),
  );
}

const args = process.argv.slice(2);
const another = args[0] === '--another';
const code = await runSetupCommand(
  another ? 'another' : 'first',
  another ? args.slice(1) : args,
  process.env,
  {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    askPassword,
  },
);
process.exit(code);
