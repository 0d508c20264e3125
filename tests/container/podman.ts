/**
 * Podman as the container test runs it, and the base image it builds the Dockerfile from.
 *
 * No public image registry is reachable where the tests run, so `node:20-bookworm-slim` cannot be
 * pulled. The base is made here instead: Debian bookworm from Debian's own packages (debootstrap
 * minbase, with ca-certificates) plus this machine's Node and npm, which are what the Dockerfile needs
 * of its base. Debian's own nodejs (18) is older than package.json's engines allow.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * runc, not the default crun: crun fails on this machine's cgroup v1 layout ("hybrid mode not
 * supported"). Limits at or below the host's: raising one is not permitted here.
 */
export const PODMAN_GLOBAL = ['--runtime', 'runc'];
export const RUN_LIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];

/** Where the debootstrap tree is kept between runs on one machine: it takes minutes to make. */
export const BASE_CACHE = process.env.CONTAINER_BASE_CACHE || '/var/tmp/service-desk-base';

export function podman(args: string[], options: { cwd?: string; timeoutMs?: number } = {}) {
  return spawnSync('podman', [...PODMAN_GLOBAL, ...args], {
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The command's output for an error message: its status and the end of what it printed. */
export function described(result: SpawnSyncReturns<string>, what: string): string {
  const said = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim().slice(-4000);
  const how = result.error ? String(result.error) : `exit ${result.status}`;
  return `${what} failed (${how}):\n${said}`;
}

export function mustPodman(args: string[], what: string, options?: { cwd?: string; timeoutMs?: number }) {
  const result = podman(args, options);
  if (result.status !== 0) throw new Error(described(result, what));
  return result.stdout.trim();
}

/**
 * Why podman cannot run containers here, or undefined when it can. Only this skips the test: a
 * podman that runs but fails to build or start the image is a failure.
 */
export function podmanUnavailable(): string | undefined {
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return 'podman is not installed (.ci/run installs it)';
  if (process.getuid?.() !== 0) return 'podman runs rootful here and the tests are not root';
  const info = podman(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.status !== 0) return described(info, 'podman info');
  return undefined;
}

/** Runs a host command for the base image; its failure is the test's. */
function must(command: string, args: string[], what: string, timeoutMs = 60_000): string {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(described(result, what));
  return result.stdout.trim();
}

/** Debian bookworm, minbase and ca-certificates: made once, then reused from BASE_CACHE. */
function debianTree(): string {
  const tree = join(BASE_CACHE, 'bookworm-minbase');
  if (existsSync(join(tree, '.complete'))) return tree;
  mkdirSync(BASE_CACHE, { recursive: true });
  // Made beside the cache and renamed into it when whole: an interrupted run leaves no half tree
  // that a later run would take for a finished one.
  const making = mkdtempSync(join(BASE_CACHE, 'making-'));
  try {
    must(
      'debootstrap',
      ['--variant=minbase', '--include=ca-certificates', 'bookworm', making],
      'debootstrap of the base image',
      15 * 60_000,
    );
    must('touch', [join(making, '.complete')], 'marking the base tree complete');
    rmSync(tree, { recursive: true, force: true });
    renameSync(making, tree);
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return tree;
}

/** The machine's certificate authorities, which its npm and Node trust; the build's npm must too. */
const HOST_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
/** Where the base keeps them: beside Debian's own bundle, which stays as it is. */
const BASE_CA_BUNDLE = 'usr/local/share/host-ca/ca-certificates.crt';

/**
 * The base image's name for this machine's Node and certificate authorities; made when podman does
 * not have it yet. Node must be one self-contained binary (it links only the C and C++ libraries
 * that minbase has) and npm the folder beside it.
 *
 * The machine's authorities go in as well: where HTTPS leaves through a proxy that signs with an
 * authority of its own, the build's `npm ci` fails with SELF_SIGNED_CERT_IN_CHAIN unless the base
 * trusts what the machine trusts (NODE_EXTRA_CA_CERTS, as on the machine).
 */
export function baseImage(): string {
  const node = realpathSync(process.execPath);
  const hasCa = existsSync(HOST_CA_BUNDLE);
  const caHash = hasCa
    ? createHash('sha256').update(readFileSync(HOST_CA_BUNDLE)).digest('hex').slice(0, 12)
    : 'none';
  const name = `localhost/service-desk-base:node${process.versions.node}-ca${caHash}`;
  if (podman(['image', 'exists', name]).status === 0) return name;

  const linked = must('ldd', [node], 'ldd of the Node binary');
  const libraries = [...linked.matchAll(/^\s*(\S+\.so[.\d]*) /gm)].map((m) => m[1]!);
  const unknown = libraries.filter(
    (l) =>
      !/(^|\/)(linux-vdso|ld-linux-x86-64|ld-linux-aarch64|libdl|libstdc\+\+|libm|libgcc_s|libpthread|libc)\.so/.test(
        l,
      ),
  );
  if (unknown.length)
    throw new Error(`${node} needs libraries that the base does not have: ${unknown.join(', ')}`);
  const npmDir = join(dirname(node), '..', 'lib', 'node_modules', 'npm');
  if (!existsSync(join(npmDir, 'bin', 'npm-cli.js'))) throw new Error(`no npm beside ${node} (${npmDir})`);

  // Node's headers, for the native modules the build compiles (argon2: below); without them node-gyp
  // would download them, and no download but the npm registry's reaches these machines.
  const headers = join(dirname(node), '..', 'include', 'node');
  const hasHeaders = existsSync(join(headers, 'node_api.h'));

  const tree = debianTree();
  // Node and npm go into the same archive as the tree, at the paths Debian's images use; npm and npx
  // are links, as Node's own install makes them.
  const links = mkdtempSync(join(BASE_CACHE, 'links-'));
  try {
    mkdirSync(join(links, 'usr', 'bin'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(links, 'usr', 'bin', 'npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(links, 'usr', 'bin', 'npx'));
    if (hasCa) {
      mkdirSync(dirname(join(links, BASE_CA_BUNDLE)), { recursive: true });
      copyFileSync(HOST_CA_BUNDLE, join(links, BASE_CA_BUNDLE));
    }
    const archive = join(links, 'base.tar');
    must(
      'tar',
      [
        '--create',
        `--file=${archive}`,
        '--directory',
        tree,
        '--exclude=./.complete',
        '.',
        '--directory',
        '/',
        '--transform',
        [
          `s|^${relative('/', node)}$|usr/bin/node|`,
          `s|^${relative('/', npmDir)}|usr/lib/node_modules/npm|`,
          `s|^${relative('/', headers)}|usr/include/node|`,
        ].join(';'),
        relative('/', node),
        relative('/', npmDir),
        ...(hasHeaders ? [relative('/', headers)] : []),
        '--directory',
        links,
        'usr/bin/npm',
        'usr/bin/npx',
        ...(hasCa ? [BASE_CA_BUNDLE] : []),
      ],
      'packing the base image',
      5 * 60_000,
    );
    const env = [
      ...(hasCa ? ['--change', `ENV NODE_EXTRA_CA_CERTS=/${BASE_CA_BUNDLE}`] : []),
      ...(hasHeaders ? ['--change', 'ENV npm_config_nodedir=/usr'] : []),
    ];
    mustPodman(['import', ...env, archive, name], 'podman import of the base image', {
      timeoutMs: 5 * 60_000,
    });
  } finally {
    rmSync(links, { recursive: true, force: true });
  }
  return name;
}
