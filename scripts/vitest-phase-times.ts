/**
 * A vitest reporter for scripts/run-tests.ts: how long each kind of test file kept a worker busy,
 * written as JSON to the file named by PHASE_TIMES_FILE. An API file runs its suites once per
 * database (`describe.each(targets)`, named '… on pglite' / '… on postgres'), so its time is split
 * by those suites' durations, which include their hooks (the database set-up); what is left of the
 * file (import, files without a target) is counted apart. vitest quotes the name: `on 'pglite'`.
 */
import { writeFileSync } from 'node:fs';
import { experimental_getRunnerTask, type Reporter, type TestModule } from 'vitest/node';

export interface PhaseTimes {
  unit: number;
  pglite: number;
  postgres: number;
  apiShared: number;
  /** Each file's own time, its environment, import and collection included (the JSON report leaves
   * these out, so a file that is slow to import would not show among the slowest). */
  files: Record<string, number>;
}

function moduleMs(module: TestModule): number {
  const d = module.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
}

export default class PhaseTimesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const file = process.env.PHASE_TIMES_FILE;
    if (!file) return;
    const times: PhaseTimes = { unit: 0, pglite: 0, postgres: 0, apiShared: 0, files: {} };
    for (const module of modules) {
      const total = moduleMs(module);
      times.files[module.relativeModuleId] = total;
      if (!module.relativeModuleId.startsWith('tests/api/')) {
        times.unit += total;
        continue;
      }
      let targeted = 0;
      for (const suite of module.children.suites()) {
        const target = /\bon '?(pglite|postgres)\b/.exec(suite.name)?.[1] as
          'pglite' | 'postgres' | undefined;
        if (!target) continue;
        const ms = experimental_getRunnerTask(suite).result?.duration ?? 0;
        times[target] += ms;
        targeted += ms;
      }
      times.apiShared += Math.max(0, total - targeted);
    }
    writeFileSync(file, JSON.stringify(times));
  }
}
