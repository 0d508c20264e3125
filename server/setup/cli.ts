import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { configFromEnv } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { FolderInUse } from '../db/folder-lock.ts';
import { prepareDatabase } from '../boot.ts';
import { registry } from '../schema/registry.ts';
import { hashOnce } from '../auth/password-hashing.ts';
import { HttpError } from '../http/errors.ts';
import { createTenant, LANGUAGES, type Language } from '../tenancy/create-tenant.ts';
import { newPasswordProblems } from './password.ts';

/*
 * `npm run setup` (the first tenant, what the setup page does) and `npm run tenant:create` (one more
 * tenant on the same installation), without a browser (issue 32). The database is the server's:
 * DATABASE_URL, else the embedded one in DATA_DIR, which the server must not hold open at the time.
 * The password comes from SETUP_ADMIN_PASSWORD, else it is asked on the terminal (not echoed).
 */

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Asks for the password; undefined when there is no terminal to ask on. */
  askPassword(prompt: string): Promise<string | undefined>;
}

const USAGE = `Usage: npm run setup -- --tenant "Acme IT" --admin-email you@example.com --admin-name "Jan Jansen"
         [--slug acme] [--language nl|en|de]
       npm run tenant:create -- (the same options; --slug is required)
The password: SETUP_ADMIN_PASSWORD, else asked on the terminal.`;

/** Runs the command; the exit code. `mode` 'first' is `npm run setup`, 'another' is `tenant:create`. */
export async function runSetupCommand(
  mode: 'first' | 'another',
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<number> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        tenant: { type: 'string' },
        slug: { type: 'string' },
        'admin-email': { type: 'string' },
        'admin-name': { type: 'string' },
        language: { type: 'string' },
      },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = configFromEnv({ ...env, SEED: 'none' });
  const name = values.tenant?.trim();
  const email = values['admin-email']?.trim().toLowerCase();
  const [firstName, ...rest] = (values['admin-name'] ?? '').trim().split(/\s+/);
  const lastName = rest.join(' ');
  const language = (values.language ?? 'nl') as Language;
  const slug = values.slug ?? (mode === 'first' ? config.defaultTenant : undefined);
  const problems = [
    !name && '--tenant is required',
    (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) && '--admin-email needs an e-mail address',
    (!firstName || !lastName) && '--admin-name needs a first and a last name',
    !LANGUAGES.includes(language) && '--language must be nl, en or de',
    !slug && '--slug is required for another tenant',
    slug &&
      !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(slug) &&
      '--slug must be lower-case letters, digits and hyphens',
  ].filter(Boolean);
  if (problems.length > 0) {
    io.err(`${problems.join('\n')}\n${USAGE}`);
    return 2;
  }
  const password = env.SETUP_ADMIN_PASSWORD ?? (await io.askPassword(`Password for ${email}: `));
  if (!password) {
    io.err('No password: set SETUP_ADMIN_PASSWORD or run the command on a terminal.');
    return 2;
  }
  const weak = newPasswordProblems(password, email!, config.passwordMinLength);
  if (weak) {
    io.err(weak.join('\n'));
    return 2;
  }

  let database;
  try {
    database = await openDatabase(
      config.databaseUrl
        ? { url: config.databaseUrl, poolSize: 2 }
        : { dataDir: join(config.dataDir, 'pglite') },
    );
  } catch (error) {
    if (!(error instanceof FolderInUse)) throw error;
    io.err(`${error.message}\nStop the server first, or use the setup page in the browser.`);
    return 1;
  }
  try {
    await prepareDatabase(database.db, registry(), 'none');
    const created = await createTenant(
      database.db,
      registry(),
      {
        name: name!,
        slug: slug!,
        language,
        admin: { firstName: firstName!, lastName, email: email!, passwordHash: await hashOnce(password) },
      },
      { firstOnly: mode === 'first' },
    );
    io.out(
      `Tenant "${name}" (${slug}) created with operator ${email} (user ${created.userId}). ` +
        `Start the server (npm start) and sign in at ${config.publicUrl ?? `http://localhost:${config.port}`}/.`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    io.err(
      mode === 'first' && error.statusCode === 409
        ? `${error.message}\nFor one more tenant: npm run tenant:create -- --slug … (the same options).`
        : error.message,
    );
    return 1;
  } finally {
    await database.close();
  }
}
