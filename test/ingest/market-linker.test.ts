/**
 * The market linker over a real store: changed texts only are judged, against candidates of other
 * venues; verdicts and texts are stored; a new linker (a restart) judges nothing unchanged; a
 * failure part way leaves the texts to be judged again. The judge here is a stand-in that counts
 * its calls: the real one is tested in test/unit/links.
 */
import pino from 'pino';
import type { LinkVerdict, MarketText } from '../../src/domain/links.js';
import { createLinkModel } from '../../src/ingest/link-model.js';
import { createMarketLinker, type LinkingRules } from '../../src/ingest/market-linker.js';
import { startChatServer } from '../support/chat-server.js';
import { within } from '../support/wait.js';
import type { MarketLinkRepository } from '../../src/store/market-links.js';
import { describeOnEachEngine } from '../support/store-suite.js';

const T0 = Date.UTC(2026, 10, 29, 7, 0, 0);
const text = (venue: string, id: string, question: string): MarketText => ({ venue, id, question, rules: '', closeTime: T0 });

function countingRules() {
  const judged: string[] = [];
  const rules: LinkingRules = {
    judge(a, b): LinkVerdict {
      judged.push(`${a.id}~${b.id}`);
      const relation = a.question === b.question ? 'same' : 'different';
      return { relation, evidence: [{ aspect: 'subject', a: a.question, b: b.question, agrees: relation === 'same' }], basisRisk: [], missing: [] };
    },
    keysOf: (t) =>
      t.question
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 3),
    claimOf: (t) => (t.question.includes('Bitcoin') ? { asset: 'BTC', symbol: 'BTC/USD', comparator: 'above', threshold: 1, kind: 'touch', until: T0 } : null),
  };
  return { rules, judged };
}

/** A linker whose judge leaves every pair unresolved and asks the model at `baseUrl`. */
function unresolvedLinker(repo: MarketLinkRepository, baseUrl: string, timeoutMs: number) {
  const { rules } = countingRules();
  return createMarketLinker({
    repo,
    rules: { ...rules, judge: (a, b) => ({ ...rules.judge(a, b), relation: 'unresolved' }), askModel: createLinkModel({ baseUrl, model: 'm', timeoutMs }) },
    now: () => T0,
    logger: pino({ level: 'silent' }),
  });
}

describeOnEachEngine('market linker', (suite) => {
  const { maybe } = suite;
  const logger = pino({ level: 'silent' });

  maybe('judges changed texts against other venues, stores verdicts and claims; a restart judges nothing unchanged', async () => {
    const repo = suite.store.marketLinks;
    const first = countingRules();
    const linker = createMarketLinker({ repo, rules: first.rules, now: () => T0, logger });
    expect(await linker.accept([text('kal', 'K1', 'Will Bitcoin close above 100k'), text('kal', 'K2', 'Will Bitcoin close above 90k')])).toBe(0);
    expect(await linker.accept([text('poly', 'P1', 'Will Bitcoin close above 100k'), text('poly', 'P2', 'Rain in Paris tomorrow')])).toBe(2);
    expect(first.judged.sort()).toEqual(['P1~K1', 'P1~K2']);
    expect((await repo.linksOf(['kal:K1'])).get('kal:K1')).toEqual([
      expect.objectContaining({ otherId: 'poly:P1', relation: 'same', decidedBy: 'rules', decidedAt: T0 }),
    ]);
    expect(await repo.marketIdsClaiming('BTC')).toEqual(['kal:K1', 'kal:K2', 'poly:P1']);

    // The same texts again: nothing judged.
    expect(await linker.accept([text('poly', 'P1', 'Will Bitcoin close above 100k')])).toBe(0);

    // A restart: the index comes back from the store; unchanged texts cost nothing, a changed one is judged again.
    const second = countingRules();
    const restarted = createMarketLinker({ repo, rules: second.rules, now: () => T0 + 1, logger });
    expect(await restarted.accept([text('kal', 'K1', 'Will Bitcoin close above 100k')])).toBe(0);
    expect(await restarted.accept([text('kal', 'K1', 'Will Bitcoin close above 120k')])).toBe(1);
    expect(second.judged).toEqual(['K1~P1']);
    expect((await repo.linksOf(['poly:P1'])).get('poly:P1')).toEqual([]);
  });

  maybe('a failure while storing verdicts leaves the text unstored, so the next batch judges it again', async () => {
    const repo = suite.store.marketLinks;
    const { rules, judged } = countingRules();
    let failNext = false;
    const failing = {
      ...repo,
      async replaceVerdicts(...args: Parameters<typeof repo.replaceVerdicts>) {
        if (failNext) {
          failNext = false;
          throw new Error('database went away');
        }
        return repo.replaceVerdicts(...args);
      },
    };
    const linker = createMarketLinker({ repo: failing, rules, now: () => T0, logger });
    await linker.accept([text('xa', 'A', 'Snow in Oslo on Friday')]);
    failNext = true;
    await expect(linker.accept([text('xb', 'B', 'Snow in Oslo on Friday')])).rejects.toThrow('database went away');
    expect(await repo.textsByIds(['xb:B'])).toEqual([]);
    expect(await linker.accept([text('xb', 'B', 'Snow in Oslo on Friday')])).toBe(1);
    expect(judged).toEqual(['B~A', 'B~A']);
    expect((await repo.linksOf(['xa:A'])).get('xa:A')).toEqual([expect.objectContaining({ otherId: 'xb:B', relation: 'same' })]);
  });
});

describeOnEachEngine('market linker, one batch of several venues', (suite) => {
  suite.maybe('judges the pairs within one batch (the demo declares its venues together)', async () => {
    const { rules } = countingRules();
    const linker = createMarketLinker({ repo: suite.store.marketLinks, rules, now: () => T0, logger: pino({ level: 'silent' }) });
    await linker.accept([text('va', '1', 'Hail in Lyon on Monday'), text('vb', '1', 'Hail in Lyon on Monday'), text('vb', '2', 'Hail in Lyon on Tuesday')]);
    expect((await suite.store.marketLinks.linksOf(['va:1'])).get('va:1')).toEqual([expect.objectContaining({ otherId: 'vb:1', relation: 'same' })]);
  });
});

describeOnEachEngine('market linker with a model', (suite) => {
  suite.maybe(
    "asks a chat-completions endpoint about unresolved pairs only, records its verdict as the model's, and keeps unresolved when it fails",
    async () => {
      const chat = await startChatServer([{ kind: 'answer', content: '{"relation": "same", "why": "Both settle on the December 2026 meeting."}' }]);
      try {
        const { rules, judged } = countingRules();
        const unresolvedRules: LinkingRules = {
          ...rules,
          judge: (a, b) => ({
            ...rules.judge(a, b),
            relation: a.question.includes('Fed') ? 'unresolved' : rules.judge(a, b).relation,
            missing: ['the meeting'],
          }),
          askModel: createLinkModel({ baseUrl: chat.baseUrl, model: 'test-model', timeoutMs: 5_000 }),
        };
        const linker = createMarketLinker({ repo: suite.store.marketLinks, rules: unresolvedRules, now: () => T0, logger: pino({ level: 'silent' }) });
        await linker.accept([text('fa', 'F', 'Fed cut in December meeting'), text('fa', 'S', 'Sleet in Bergen on Friday')]);
        await linker.accept([text('fb', 'F', 'Fed cut in December meeting'), text('fb', 'S', 'Sleet in Bergen on Friday')]);
        expect(judged.length).toBeGreaterThan(0);
        expect(chat.requests).toHaveLength(1);
        expect(JSON.stringify(chat.requests[0]!.body)).toContain('Fed cut in December meeting');
        const [fed] = (await suite.store.marketLinks.linksOf(['fa:F'])).get('fa:F')!;
        expect(fed).toMatchObject({
          otherId: 'fb:F',
          relation: 'same',
          decidedBy: 'model',
          basisRisk: ['decided by a language model: Both settle on the December 2026 meeting.'],
        });
        expect((await suite.store.marketLinks.linksOf(['fa:S'])).get('fa:S')).toEqual([expect.objectContaining({ relation: 'same', decidedBy: 'rules' })]);
      } finally {
        await chat.close();
      }
      const down = await startChatServer([{ kind: 'status', status: 500 }]);
      try {
        const linker = unresolvedLinker(suite.store.marketLinks, down.baseUrl, 2_000);
        await linker.accept([text('ga', 'G', 'Gale in Cork on Sunday')]);
        await linker.accept([text('gb', 'G', 'Gale in Cork on Sunday')]);
        expect((await suite.store.marketLinks.linksOf(['ga:G'])).get('ga:G')).toEqual([
          expect.objectContaining({ relation: 'unresolved', decidedBy: 'rules' }),
        ]);
      } finally {
        await down.close();
      }
    },
  );
});

describeOnEachEngine('market linker stopping', (suite) => {
  suite.maybe('stop ends a model question under way at once, not at its time budget, and the batch is judged again later', async () => {
    const model = await startChatServer([{ kind: 'hang' }]);
    try {
      const linker = unresolvedLinker(suite.store.marketLinks, model.baseUrl, 60_000);
      linker.start();
      await linker.accept([text('ha', 'H', 'Haze in Turin on Monday')]);
      linker.offer([text('hb', 'H', 'Haze in Turin on Monday')]);
      await within(10_000, () => model.requests.length > 0);
      const stopping = Date.now();
      await linker.stop();
      // The question's budget is a minute: stopping well before it means the call was aborted.
      expect(Date.now() - stopping).toBeLessThan(9_000);
      expect(await suite.store.marketLinks.textsByIds(['hb:H'])).toEqual([]);
    } finally {
      await model.close();
    }
  });
});
