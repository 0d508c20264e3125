/** Command line of `npm run bench`: --tickets N, --quick, --json, --skip <sections>, --only <sections>. */

export const SECTIONS = [
  'api',
  'writes',
  'throughput',
  'portal',
  'lighthouse',
  'embedded',
  'instances',
  'reports',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface BenchArgs {
  /** Undefined: the default of the database kind (1,000,000 on PostgreSQL, less on PGlite). */
  tickets?: number;
  quick: boolean;
  json: boolean;
  skip: Section[];
  /** Set: only these sections run (the data section always does). */
  only?: Section[];
}

export const FULL_TICKETS = 1_000_000;
export const QUICK_TICKETS = 100_000;
/** PGlite is one process and one core: a smaller data set keeps a run short. */
export const PGLITE_TICKETS = 20_000;

export function parseArgs(argv: string[]): BenchArgs {
  const out: BenchArgs = { quick: false, json: false, skip: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--tickets': {
        const text = value().replace(/[_,]/g, '');
        if (!/^[1-9]\d*$/.test(text)) throw new Error(`--tickets takes a positive whole number, not ${text}`);
        out.tickets = Number(text);
        break;
      }
      case '--quick':
        out.quick = true;
        break;
      case '--json':
        out.json = true;
        break;
      case '--skip':
        out.skip.push(...sections(name, value()));
        break;
      case '--only':
        out.only = [...(out.only ?? []), ...sections(name, value())];
        break;
      default:
        throw new Error(
          `Unknown option ${arg}. Options: --tickets N, --quick, --json, --skip ${SECTIONS.join(',')}, --only ${SECTIONS.join(',')}`,
        );
    }
  }
  return out;
}

function sections(option: string, list: string): Section[] {
  return list.split(',').map((s) => {
    if (!(SECTIONS as readonly string[]).includes(s))
      throw new Error(`${option} takes ${SECTIONS.join(', ')}; not ${s}`);
    return s as Section;
  });
}

/** Whether a run with these options measures a section: named by --only (when given) and not skipped. */
export function runsSection(args: BenchArgs, section: Section): boolean {
  return !args.skip.includes(section) && (!args.only || args.only.includes(section));
}

/**
 * `npm run bench --quick` hands --quick to npm, not to the script: npm passes it on as the environment
 * variable npm_config_quick. Those become arguments again (`npm run bench -- --quick` works as well).
 */
export function npmConfigArgs(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  const on = (v: string | undefined) => v !== undefined && v !== '' && v !== 'false';
  if (on(env.npm_config_quick)) out.push('--quick');
  if (on(env.npm_config_json)) out.push('--json');
  if (on(env.npm_config_tickets)) out.push('--tickets', env.npm_config_tickets!);
  if (on(env.npm_config_skip)) out.push('--skip', env.npm_config_skip!);
  if (on(env.npm_config_only)) out.push('--only', env.npm_config_only!);
  return out;
}

/** The number of tickets of a run: --tickets, else by --quick and the database kind. */
export function ticketCount(args: BenchArgs, kind: 'postgres' | 'pglite'): number {
  if (args.tickets) return args.tickets;
  if (kind === 'pglite') return PGLITE_TICKETS;
  return args.quick ? QUICK_TICKETS : FULL_TICKETS;
}
