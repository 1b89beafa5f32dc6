/**
 * The modules `npm run test:mutation` judges (scripts/stryker.config.mjs mutates their files), and a
 * Stryker reporter, `module-summary`, that prints the score of each as the Markdown table of
 * docs/development.md: mutants, killed, survived, timeout, no coverage, score.
 */
import { declareFactoryPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** The files that decide, per module. */
export const MODULES = {
  admission: ['src/edge/edge.ts', 'src/domain/plans.ts'],
  quotas: ['src/quota/quota-service.ts', 'src/quota/plans.ts', 'src/quota/counters.ts'],
  'key authentication': ['src/auth/api-key.ts', 'src/auth/authenticator.ts', 'src/auth/key-lookup.ts', 'src/auth/key-changes.ts', 'src/auth/key-answers.ts'],
  webhooks: ['src/webhooks/destination.ts', 'src/webhooks/signing.ts'],
  dashboard: ['src/dashboard/cross-site.ts', 'src/dashboard-accounts/secrets.ts', 'src/dashboard-accounts/sign-in-throttle.ts'],
};

const moduleOf = (file) => Object.entries(MODULES).find(([, files]) => files.includes(file))?.[0] ?? file;

/** Counts per module of a mutation-testing report (mutation-testing-report-schema), with Stryker's score: detected / (detected + undetected). */
export function summarise(report) {
  const rows = new Map();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const name = moduleOf(file.replaceAll('\\', '/'));
    const row = rows.get(name) ?? { module: name, mutants: 0, Killed: 0, Survived: 0, Timeout: 0, NoCoverage: 0 };
    for (const mutant of mutants) {
      if (!(mutant.status in row)) continue; // compile and runtime errors, ignored: not counted by the score
      row.mutants++;
      row[mutant.status]++;
    }
    rows.set(name, row);
  }
  return [...rows.values()].map((row) => ({ ...row, score: (100 * (row.Killed + row.Timeout)) / (row.mutants || 1) }));
}

export function table(rows) {
  const lines = ['| module | mutants | killed | survived | timeout | no coverage | score |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.module} | ${r.mutants} | ${r.Killed} | ${r.Survived} | ${r.Timeout} | ${r.NoCoverage} | ${r.score.toFixed(1)} % |`);
  return lines.join('\n');
}

function moduleSummary() {
  return {
    onMutationTestReportReady(report) {
      process.stdout.write(`\nMutation score per module:\n\n${table(summarise(report))}\n\n`);
    },
  };
}
moduleSummary.inject = [];

export const strykerPlugins = [declareFactoryPlugin(PluginKind.Reporter, 'module-summary', moduleSummary)];
