/** The judge on real texts (pairs-dev and the recordings, trimmed): each relation and the hard negatives. */
import type { LinkVerdict, MarketText } from '../../../src/domain/links.js';
import { judgePair } from '../../../src/links/judge.js';

const kalshi = (id: string, question: string, close: string, rules = '', extra: Partial<MarketText> = {}): MarketText => ({
  venue: 'kalshi',
  id,
  question,
  rules,
  closeTime: Date.parse(close),
  ...extra,
});
const poly = (id: string, question: string, close: string, rules = '', venue = 'polymarket'): MarketText => ({
  venue,
  id,
  question,
  rules,
  closeTime: Date.parse(close),
});
const aspect = (v: LinkVerdict, name: string) => v.evidence.find((e) => e.aspect === name);

describe('same', () => {
  it("Kalshi's hourly Bitcoin and Polymarket's at one instant and threshold, the tick listed as basis risk (pairs-dev 48)", () => {
    const v = judgePair(
      kalshi('KXBTCD-26MAY1204-T82399.99', 'Bitcoin price on May 12, 2026 at 4am EDT? — $82,400 or above', '2026-05-12T08:00:00Z'),
      poly('2238873', 'Bitcoin above 82,400 on May 12, 4AM ET?', '2026-05-12T08:32:09Z'),
    );
    expect(v.relation).toBe('same');
    expect(v.basisRisk.some((r) => /tick/.test(r))).toBe(true);
    expect(aspect(v, 'window')).toEqual({ aspect: 'window', a: 'at 2026-05-12T08:00:00Z', b: 'at 2026-05-12T08:00:00Z', agrees: true });
  });
  it('a team game with the YES team first on both venues (pairs-dev 74)', () => {
    const v = judgePair(
      kalshi('KXWNBAGAME-26MAY09ATLMIN-ATL', 'Atlanta vs Minnesota', '2026-05-10T02:37:56Z'),
      poly('2139311', 'Atlanta Dream vs. Minnesota Lynx', '2026-05-10T08:02:22Z'),
    );
    expect(v.relation).toBe('same');
    expect(v.basisRisk).toContain('rules not given on one venue: its postponement, void and tie handling are unread');
  });
  it("a player's statistic, with each venue's stat-correction rule as basis risk (pairs-dev 122)", () => {
    const v = judgePair(
      kalshi(
        'KXNFLPASSYDS-26SEP13BUFHOU-HOUCSTROUD7-150',
        'C.J. Stroud: 150+ passing yards',
        '2026-09-13T20:00:00Z',
        'If C.J. Stroud records 150+ passing yards in the Buffalo vs Houston Pro Football game originally scheduled for Sep 13, 2026, then the market resolves to Yes.',
      ),
      poly(
        'astatc-nfl-buf-hou-2026-09-13-pyd-cstr-gte150',
        'C.J. Stroud · Will C.J. Stroud record 150+ passing yards?',
        '2026-09-27T17:00:00Z',
        'This market will settle to Yes if C.J. Stroud records at least 150 passing yards in the Buffalo Bills vs Houston Texans professional football game scheduled for Sep 13, 2026. For purposes of this market, stat corrections enforced after the game has been completed will not count.',
        'polymarket_us',
      ),
    );
    expect(v.relation).toBe('same');
    expect(v.basisRisk).toContain('polymarket_us only: stat corrections after the event ignored');
  });
});

describe('inverse', () => {
  it("opposite YES teams in basketball: Kalshi's ticker names Varese, Polymarket's first outcome Bologna (pairs-dev 1, labelled different)", () => {
    const v = judgePair(
      kalshi('KXBBSERIEAGAME-26MAY101100VARVIB-VAR', 'Pallacanestro Varese vs Virtus Bologna', '2026-05-10T17:01:08Z'),
      poly('2163277', 'Virtus Bologna vs. Pallacanestro Varese', '2026-05-10T18:54:53Z'),
    );
    expect(v.relation).toBe('inverse');
    expect(aspect(v, 'yes_side')?.agrees).toBe(false);
  });
  it('college football with full rules, nicknames aligned through the slug, the postponement windows as basis risk (pairs-dev 121)', () => {
    const v = judgePair(
      kalshi(
        'KXNCAAFGAME-26SEP12RICEND-ND',
        'Will Notre Dame win the Rice vs Notre Dame college football game?',
        '2026-09-12T22:30:00Z',
        'If Notre Dame wins the Rice vs Notre Dame college football game originally scheduled for Sep 12, 2026, then the market resolves to Yes.\n\nIf the game is postponed from its originally scheduled date but begins within 48 hours, the market will remain open. If the game is not started within 48 hours, the market will resolve to the a fair market price.',
      ),
      poly(
        'aec-cfb-rice-nd-2026-09-12',
        'Who will win in the upcoming football event Owls vs Fighting Irish scheduled for September 12, 2026 at 7:30 PM UTC? [outcome: Owls]',
        '2026-09-26T19:30:00Z',
        'This market will settle to the winner of the Owls vs Fighting Irish College Football game scheduled for Sep 12, 2026. Overtime is included if played. If a tied final score is reported and no official winner is declared, this market will not resolve automatically. If the game is delayed, postponed, or suspended and not rescheduled to a date within two weeks of the originally scheduled date, the market will settle to the last fair market price.',
        'polymarket_us',
      ),
    );
    expect(v.relation).toBe('inverse');
    expect(v.basisRisk).toEqual(expect.arrayContaining(['kalshi only: postponement: 48 hours', 'polymarket_us only: postponement: two weeks']));
  });
  it('Kalshi "at or above" against Polymarket "below" one threshold at one instant', () => {
    const v = judgePair(
      kalshi('KXBTCD-26MAY1204-T82399.99', 'Bitcoin price on May 12, 2026 at 4am EDT? — $82,400 or above', '2026-05-12T08:00:00Z'),
      poly('x', 'Bitcoin below 82,400 on May 12, 4AM ET?', '2026-05-12T08:32:09Z'),
    );
    expect(v.relation).toBe('inverse');
  });
});

describe('related, with the implication where there is one', () => {
  it('top 10 implies top 20 (pairs-dev 119)', () => {
    const v = judgePair(
      kalshi('KXPGATOP10-ONMBC26-TCRO', 'Oneflight Myrtle Beach Classic: Top 10 Finishers — Trace Crowe', '2026-05-10T22:20:32Z'),
      poly('2156659', 'Will Trace Crowe finish in the Top 20 at the 2026 ONEflight Myrtle Beach Classic?', '2026-05-10T21:04:04Z'),
    );
    expect(v).toMatchObject({ relation: 'related', implies: 'a_implies_b' });
  });
  it('Bitcoin above 90k implies above 85k at the same instant', () => {
    const v = judgePair(
      poly('a', 'Bitcoin above 85,000 on May 12, 4AM ET?', '2026-05-12T08:30:00Z'),
      poly('b', 'Bitcoin above 90,000 on May 12, 4AM ET?', '2026-05-12T08:30:00Z'),
    );
    expect(v).toMatchObject({ relation: 'related', implies: 'b_implies_a' });
  });
});

describe('hard negatives', () => {
  const angelCity = kalshi('KXNWSLGAME-26MAY09ANGSAN-ANG', 'Angel City FC vs San Diego Wave FC', '2026-05-10T02:52:34Z');
  it.each([
    [
      'a draw market against a winner market (pairs-dev 38)',
      kalshi('KXNWSLGAME-26MAY09ANGSAN-SAN', 'Angel City FC vs San Diego Wave FC', '2026-05-10T02:52:34Z'),
      poly('1958524', 'Will Angel City FC vs. San Diego Wave FC end in a draw?', '2026-05-10T05:53:13Z'),
    ],
    [
      'an exact score against a winner (pairs-dev 111)',
      angelCity,
      poly('2212593', 'Exact Score: Angel City FC 0 - 0 San Diego Wave FC?', '2026-05-10T05:55:17Z'),
    ],
    ['an over/under against a winner (pairs-dev 114)', angelCity, poly('1958796', 'Angel City FC vs. San Diego Wave FC: O/U 1.5', '2026-05-10T05:51:25Z')],
    [
      'map 2 against map 1 (pairs-dev 50)',
      kalshi('KXVALORANTMAP-26MAY120400ZETAGENG-2-ZETA', 'ZETA DIVISION vs. Gen.G Esports: Map 2', '2026-05-12T10:05:22Z'),
      poly('2234689', 'Valorant: ZETA DIVISION vs Gen.G Esports - Map 1 Winner', '2026-05-12T11:22:57Z'),
    ],
    [
      'set 2 against set 1 (pairs-dev 63)',
      kalshi('KXATPSETWINNER-26MAY09AUGNAV-2-AUG', 'Felix Auger-Aliassime vs Mariano Navone: Set 2 Winner', '2026-05-09T14:42:36Z'),
      poly('2185505', 'Set 1 Winner: Auger-Aliassime vs Navone', '2026-05-09T17:24:04Z'),
    ],
    [
      'a map handicap against a map winner (pairs-dev 75)',
      kalshi('KXCS2MAP-26MAY091300UNITYMOUZN-1-MOUZN', 'UNiTY esports vs. MOUZ NXT: Map 1', '2026-05-09T17:30:48Z'),
      poly('2216229', 'Map Handicap: MOUZ.N (-1.5) vs UNiTY esports (+1.5)', '2026-05-09T23:17:38Z'),
    ],
    [
      'opposite teams where baseball can tie (KBO, pairs-dev 20)',
      kalshi('KXKBOGAME-26MAY100100KIALOT-LOT', 'Kia Tigers vs Lotte Giants', '2026-05-10T08:04:37Z'),
      poly('2154766', 'KBO: Kia Tigers vs. Lotte Giants', '2026-05-10T10:04:19Z'),
    ],
    [
      'a Polymarket "completed match" against a winner (pairs-dev 79)',
      kalshi('KXATPCHALLENGERMATCH-26MAY09PDARON-RON', 'Pucinelli de Almeida vs Roncadelli — Franco Roncadelli', '2026-05-09T19:20:33Z'),
      poly('2202776', 'Santos: Completed Match: Matheus Pucinelli de Almeida vs Franco Roncadelli', '2026-05-10T04:42:38Z'),
    ],
  ])('%s: related, never same or inverse', (_name, a, b) => {
    expect(judgePair(a, b).relation).toBe('related');
  });

  it('the same teams the next day are another fixture (pairs-dev 87)', () => {
    const v = judgePair(
      kalshi('KXMLBGAME-26MAY091805COLPHI-COL', 'Colorado vs Philadelphia', '2026-05-10T01:10:14Z'),
      poly('2154818', 'Colorado Rockies vs. Philadelphia Phillies', '2026-05-11T00:37:02Z'),
    );
    expect(v.relation).toBe('different');
  });

  it('a date-only Polymarket price against a Kalshi hour: unresolved, saying what is missing (pairs-dev 96)', () => {
    const v = judgePair(
      kalshi('KXBTCD-26MAY1116-T87999.99', 'Bitcoin price on May 11, 2026 at 4pm EDT? — $88,000 or above', '2026-05-11T20:00:00Z'),
      poly('2155904', 'Will the price of Bitcoin be above $88,000 on May 11?', '2026-05-11T18:58:19Z'),
    );
    expect(v.relation).toBe('unresolved');
    expect(v.missing).toEqual(['the hour at which the price is read: the question gives a date only and the rules state no time']);
  });

  describe("the daily market's rules state noon ET (Binance) against Kalshi's CF Benchmarks index", () => {
    const polymarketDaily = poly(
      '2155904',
      'Will the price of Bitcoin be above $88,000 on May 11?',
      '2026-05-11T18:58:19Z',
      'This market will resolve to "Yes" if the Binance 1 minute candle for BTC/USDT 12:00 in the ET timezone (noon) on the date specified in the title has a final "Close" price higher than the price specified in the title.',
    );
    const brti =
      "If the simple average of the sixty seconds of CF Benchmarks' Bitcoin Real-Time Index (BRTI) before the hour is above 87999.99, then the market resolves to Yes.";
    it('at noon: same, the price source as basis risk', () => {
      const v = judgePair(
        kalshi('KXBTCD-26MAY1112-T87999.99', 'Bitcoin price on May 11, 2026 at 12pm EDT? — $88,000 or above', '2026-05-11T16:00:00Z', brti),
        polymarketDaily,
      );
      expect(v.relation).toBe('same');
      expect(aspect(v, 'settlement_source')).toMatchObject({ a: 'CF Benchmarks index', b: 'Binance', agrees: false });
      expect(v.basisRisk[0]).toMatch(/^price source: CF Benchmarks index against Binance/);
    });
    it('at 4pm: another instant, related', () => {
      const v = judgePair(
        kalshi('KXBTCD-26MAY1116-T87999.99', 'Bitcoin price on May 11, 2026 at 4pm EDT? — $88,000 or above', '2026-05-11T20:00:00Z', brti),
        polymarketDaily,
      );
      expect(v.relation).toBe('related');
    });
  });

  it('one city, two weather stations: related; a station not named: unresolved (pairs-dev 105)', () => {
    const high = (id: string, rules: string) =>
      kalshi(id, 'Highest temperature in New York City on May 10, 2026? — 70° to 71°', '2026-05-11T04:59:00Z', rules, {
        strike: { type: 'between', floor: 70, cap: 71 },
      });
    const pm = (rules: string) => poly('p', 'Will the highest temperature in New York City be between 70-71°F on May 10?', '2026-05-10T20:00:00Z', rules);
    expect(
      judgePair(
        high('k', 'The reading at Central Park, New York, as reported by the National Weather Service.'),
        pm('This market resolves to the highest temperature recorded at the LaGuardia Airport station.'),
      ).relation,
    ).toBe('related');
    expect(judgePair(high('k', ''), pm('')).relation).toBe('unresolved');
  });

  it('titles alone never make two statements the same', () => {
    const v = judgePair(
      kalshi('K', 'Will Taylor Swift be Time Person of the Year in 2026?', '2026-12-31T00:00:00Z'),
      poly('P', 'Will Taylor Swift be Time Person of the Year in 2026?', '2026-12-31T00:00:00Z'),
    );
    expect(v.relation).toBe('unresolved');
    expect(v.missing[0]).toMatch(/titles alone never make a pair the same/);
  });
});

describe('conditions stated in rules (Kalshi "If <X>, then the market resolves to Yes."; Polymarket "... if <X>.")', () => {
  const K = 'kalshi';
  const P = 'polymarket_us';
  const grokBefore = [
    K,
    'KXGROK-GROK5-26OCT01',
    'Will xAI release Grok 5 before Oct 1, 2026?',
    'If xAI releases Grok 5 before Oct 1, 2026, then the market resolves to Yes.',
  ];
  const cases: Array<[string, string[], string[], { relation: string; implies?: string }]> = [
    [
      'an award, "has won" and "wins" one wording: same',
      [
        K,
        'KXOSCARPIC-27-JOS',
        'Will Josephine win Best Picture at the Oscars?',
        'If Josephine has won Best Picture at the 99th Academy Awards, then the market resolves to Yes.',
      ],
      [
        P,
        'tac-oscars-bestpic-joseph',
        'Josephine · Oscar Winner: Best Picture',
        'This market will settle to Yes if Josephine wins Best Picture at the 99th Academy Awards.',
      ],
      { relation: 'same' },
    ],
    [
      '"before Oct 1, 2026" and "by September 30, 2026, 11:59 PM ET" are one deadline: same',
      grokBefore,
      [
        P,
        'aimc-xai-grok-5-2026-09-30',
        'By September 30, 2026 · Grok 5 Released?',
        'This market will settle to Yes if xAI releases Grok 5 by September 30, 2026, 11:59 PM ET. Outcome sourced from xAI.',
      ],
      { relation: 'same' },
    ],
    [
      'a release by Sep 30 implies one by Dec 31',
      grokBefore,
      [
        P,
        'aimc-xai-grok-5-2026-12-31',
        'By December 31 · Grok 5 Released?',
        'This market will settle to Yes if xAI releases Grok 5 by December 31, 2026, 11:59 PM ET.',
      ],
      { relation: 'related', implies: 'a_implies_b' },
    ],
    [
      'a party primary against the presidential election (pairs-dev 123): related',
      [
        K,
        'KXFRPSNOM-26OCT01-FHOL',
        'Will François Hollande win the primary?',
        'If François Hollande wins the primary to select the French pôle socialiste’s candidate for the 2027 presidential election, then the market resolves to Yes.',
      ],
      [
        P,
        'ewc-pres-fra-2027-04-11-frahol',
        'Francois Hollande · 2027 French Presidential Election Winner',
        'If Francois Hollande wins the 2027 French Presidential Election, including any potential runoff, this market will settle to Yes.',
      ],
      { relation: 'related' },
    ],
    [
      'a meeting in September including phone calls against one in person by the end of 2026 (pairs-dev 124): related, no implication',
      [
        K,
        'KXTRUMPMEETM-26OCT01-DROD',
        'Will Donald Trump meet (including phone calls) Delcy Rodríguez in Sep 2026?',
        'If Donald Trump and Delcy Rodríguez meet (including phone calls) in Sep 2026, then the market resolves to Yes.',
      ],
      [
        P,
        'pintc-meet-trump-2026-12-31-delrod',
        'Delcy Rodriguez · Who will Trump meet with by the end of 2026?',
        'If Donald Trump meets in person with Delcy Rodriguez between Contract Issuance and December 31, 2026, 11:59 PM ET, this market will settle to Yes.',
      ],
      { relation: 'related' },
    ],
    [
      '"within the top 5" against "the #1 seed": related',
      [
        K,
        'KXNBASEED-26-OKC',
        'Will OKC be the #1 seed in the West?',
        'If the Oklahoma City Thunder finish as the #1 seed in the Western Conference, then the market resolves to Yes.',
      ],
      [
        P,
        'okc-top5',
        'Will the Thunder finish within the top 5 of the West?',
        'This market will resolve to "Yes" if the Oklahoma City Thunder finish within the top 5 of the Western Conference standings.',
      ],
      { relation: 'related' },
    ],
    [
      'a race against a standalone touch: related',
      [
        K,
        'KXBTCRACE',
        'Will Bitcoin go below $30,000 before reaching a new all time high?',
        'If Bitcoin trades below $30,000 before reaching a new all-time high, then the market resolves to Yes.',
      ],
      [P, 'btc-30k', 'Will Bitcoin dip to $30,000 in 2026?', 'This market will resolve to "Yes" if Bitcoin trades at or below $30,000 at any time in 2026.'],
      { relation: 'related' },
    ],
    [
      '"is the nominee" and "wins the nomination" are one proposition: same',
      [
        K,
        'KXDEMNOM-28-GNEW',
        'Will Gavin Newsom be the 2028 Democratic presidential nominee?',
        'If Gavin Newsom is the 2028 Democratic presidential nominee, then the market resolves to Yes.',
      ],
      [
        P,
        'dem-nominee-2028-newsom',
        'Will Gavin Newsom win the 2028 Democratic presidential nomination?',
        'This market will resolve to "Yes" if Gavin Newsom wins the 2028 Democratic presidential nomination. Otherwise, this market will resolve to "No".',
      ],
      { relation: 'same' },
    ],
    [
      'the nomination against the presidency: related',
      [
        K,
        'KXDEMNOM-28-GNEW',
        'Will Gavin Newsom be the 2028 Democratic presidential nominee?',
        'If Gavin Newsom is the 2028 Democratic presidential nominee, then the market resolves to Yes.',
      ],
      [
        P,
        'pres-2028-newsom',
        'Will Gavin Newsom win the 2028 US presidential election?',
        'This market will resolve to "Yes" if Gavin Newsom wins the 2028 US presidential election. Otherwise, this market will resolve to "No".',
      ],
      { relation: 'related' },
    ],
    [
      'two nominees for two awards: different',
      [
        K,
        'KXOSCARACTO-27-MATT',
        'Will Matt Damon win Best Actor at the Oscars?',
        'If Matt Damon has won Best Actor at the 99th Academy Awards, then the market resolves to Yes.',
      ],
      [
        P,
        'tac-bestactre-mikmad',
        'Mikey Madison · Oscar Winner: Best Actress',
        'This market will settle to Yes if Mikey Madison wins Best Actress at the 99th Academy Awards.',
      ],
      { relation: 'different' },
    ],
  ];
  it.each(cases)('%s', (_name, [va, ia, qa, ra], [vb, ib, qb, rb], expected) => {
    const close = Date.parse('2026-12-31T00:00:00Z');
    const v = judgePair(
      { venue: va!, id: ia!, question: qa!, rules: ra!, closeTime: close },
      { venue: vb!, id: ib!, question: qb!, rules: rb!, closeTime: close },
    );
    expect({ relation: v.relation, implies: v.implies }).toEqual({ relation: expected.relation, implies: expected.implies });
  });
});

describe('fixtures read from full rules', () => {
  const moneyline = kalshi(
    'KXNBAGAME-26MAY09OKCDEN-OKC',
    'Oklahoma City vs Denver',
    '2026-05-10T04:00:00Z',
    'If Oklahoma City wins the Oklahoma City vs Denver professional basketball game originally scheduled for May 9, 2026, then the market resolves to Yes.',
  );
  const polymarketGame = poly(
    '3001',
    'Thunder vs. Nuggets',
    '2026-05-10T06:00:00Z',
    'In the upcoming NBA game, scheduled for May 9 at 9:30PM ET: If the Oklahoma City Thunder win, the market will resolve to "Thunder". If the Denver Nuggets win, the market will resolve to "Nuggets".',
  );
  it("Polymarket's game rules name no Yes: its first outcome is YES, the same team as Kalshi's", () => {
    expect(judgePair(moneyline, { ...polymarketGame, question: 'Oklahoma City Thunder vs. Denver Nuggets' }).relation).toBe('same');
  });
  it("a Polymarket title's nicknames are read in full from its rules ('Thunder' is 'the Oklahoma City Thunder')", () => {
    const v = judgePair(moneyline, polymarketGame);
    expect(v.relation).toBe('same');
    expect(aspect(v, 'subject')?.b).toBe('Oklahoma City Thunder vs Denver Nuggets (2026-05-09)');
  });
  it('a margin is not the moneyline', () => {
    const spread = kalshi(
      'KXNBASPREAD-26MAY09OKCDEN-OKC5',
      'Oklahoma City vs Denver: Oklahoma City wins by over 5.5 points?',
      '2026-05-10T04:00:00Z',
      'If Oklahoma City wins the Oklahoma City vs Denver professional basketball game originally scheduled for May 9, 2026 by over 5.5 points, then the market resolves to Yes.',
    );
    expect(judgePair(spread, { ...polymarketGame, question: 'Oklahoma City Thunder vs. Denver Nuggets' }).relation).not.toMatch(/^(same|inverse)$/);
  });
  it('a playoff series is not its game', () => {
    const series = kalshi(
      'KXNBASERIES-26OKCDEN-OKC',
      'Oklahoma City vs Denver: series winner',
      '2026-05-10T04:00:00Z',
      'If Oklahoma City wins the Oklahoma City vs Denver series, then the market resolves to Yes.',
    );
    expect(judgePair(series, { ...polymarketGame, question: 'Oklahoma City Thunder vs. Denver Nuggets' }).relation).toBe('related');
  });
  it('"A beats B" against "B beats A": the same words, not the same proposition', () => {
    const close = Date.parse('2026-11-01T00:00:00Z');
    const v = judgePair(
      { venue: 'kalshi', id: 'K', question: 'q', rules: 'If Alice Smith defeats Bob Jones in the runoff, then the market resolves to Yes.', closeTime: close },
      {
        venue: 'polymarket',
        id: 'P',
        question: 'q',
        rules: 'This market will resolve to "Yes" if Bob Jones defeats Alice Smith in the runoff. Otherwise, "No".',
        closeTime: close,
      },
    );
    expect(v.relation).toBe('unresolved');
  });
});

describe('a fight both venues settle 50/50 on a draw (Kalshi and Polymarket US rules, trimmed)', () => {
  const kalshiFight = (suffix: string, who: string) =>
    kalshi(
      `KXUFCFIGHT-26SEP12CORBLA-${suffix}`,
      `${who} wins`,
      '2026-09-13T02:20:00Z',
      `If ${who} wins the Cortes-Acosta vs Blaydes professional MMA fight originally scheduled for Sep 12, 2026, then the market resolves to Yes.\n\nIf this fight is postponed or delayed, the market will remain open and close after the rescheduled fight has finished (within two weeks). If the fight is declared a tie or no contest, the market will resolve to 50/50 for both fighters.`,
    );
  const polymarketFight = poly(
    'aec-ufc-walcor-curbla-2026-09-12',
    'Who will win in the upcoming mma event Waldo Cortes Acosta vs Curtis Blaydes scheduled for September 12, 2026 at 9:20 PM UTC? [outcome: Waldo Cortes-Acosta]',
    '2026-09-26T18:00:00Z',
    'This market will settle to the winner of the Waldo Cortes Acosta vs Curtis Blaydes UFC fight scheduled for September 12 at 2:00PM ET. If the fight ends in a draw or is declared a no contest, the market will settle to $0.50. If the fight is not held within two weeks of the originally scheduled date, the market will settle to the last fair market price.',
    'polymarket_us',
  );
  it('the same fighter: same', () => {
    const v = judgePair(kalshiFight('COR', 'Waldo Cortes-Acosta'), polymarketFight);
    expect(v).toMatchObject({ relation: 'same', basisRisk: ['a draw or no contest settles 50/50 on both venues'] });
  });
  it('the other fighter: inverse, since a draw pays 0.50 on both sides', () => {
    expect(judgePair(kalshiFight('BLA', 'Curtis Blaydes'), polymarketFight).relation).toBe('inverse');
  });
  it('the other fighter where one venue does not split a draw: related', () => {
    const noSplit = {
      ...polymarketFight,
      rules: polymarketFight.rules.replace(' or is declared a no contest, the market will settle to $0.50', ', the market settles No'),
    };
    expect(judgePair(kalshiFight('BLA', 'Curtis Blaydes'), noSplit).relation).toBe('related');
  });
});

describe("Kalshi's per-team MLB markets against a Polymarket US game (trimmed rules)", () => {
  const kalshiTeam = (suffix: string, who: string) =>
    kalshi(
      `KXMLBGAME-26SEP142140MIAAZ-${suffix}`,
      `${who} wins`,
      '2026-09-15T04:40:00Z',
      `If ${who} wins the Miami vs Arizona professional baseball game originally scheduled for Sep 14, 2026 at 9:40 PM EDT, then the market resolves to Yes.`,
    );
  const game = poly(
    'aec-mlb-mia-az-2026-09-14',
    'Miami Marlins vs Arizona Diamondbacks · Who will win in the upcoming baseball event Miami Marlins vs Arizona Diamondbacks scheduled for September 15, 2026 at 1:40 AM UTC?',
    '2026-09-29T01:40:00Z',
    'This market will settle to the winner of the Miami Marlins vs Arizona Diamondbacks MLB game scheduled for 2026-09-14 at 9:40PM ET. Extra innings are included if played.',
    'polymarket_us',
  );
  it('the first-listed team: same, the UTC date in the title read as the New York day of the rules', () => {
    const v = judgePair(kalshiTeam('MIA', 'Miami'), game);
    expect(v.relation).toBe('same');
    expect(aspect(v, 'window')).toMatchObject({ a: '2026-09-14', b: '2026-09-14', agrees: true });
  });
  it('the other team: inverse (baseball in the MLB has no draw)', () => {
    expect(judgePair(kalshiTeam('AZ', 'Arizona'), game).relation).toBe('inverse');
  });
  it("a doubleheader's other game, the same day hours earlier: different", () => {
    const early = { ...game, rules: game.rules.replace('9:40PM ET', '4:10PM ET') };
    expect(judgePair(kalshiTeam('MIA', 'Miami'), early).relation).toBe('different');
  });
  it('the title alone, its time in UTC: still the 14th in New York', () => {
    expect(judgePair(kalshiTeam('MIA', 'Miami'), { ...game, rules: '' }).relation).toBe('same');
  });
});

describe("Kalshi's challenger tennis markets name the tournament and round with numbers (trimmed rules)", () => {
  const kalshiPlayer = (suffix: string, who: string) =>
    kalshi(
      `KXATPCHALLENGERMATCH-26SEP15PALBOR-${suffix}`,
      `${who} wins`,
      '2026-09-15T07:10:00Z',
      `If ${who} wins the Palan vs Borisiouk professional tennis match in the 2026 ATP Challenger Phan Thiet 4 Round Of 32 after a ball has been played, then the market resolves to Yes.`,
    );
  const match = poly(
    'aec-atp-dompal-marbor-2026-09-15',
    'Who will win in the upcoming tennis event Dominik Palan vs Martin Borisiouk scheduled for September 15, 2026 at 4:00 AM UTC? [outcome: Dominik Palan]',
    '2026-09-29T07:10:00Z',
    'This market will settle to the winner of the Dominik Palan vs Martin Borisiouk tennis match scheduled for September 15 at 12:00AM ET.',
    'polymarket_us',
  );
  it('the same player: same; the other: inverse', () => {
    expect(judgePair(kalshiPlayer('PAL', 'Dominik Palan'), match).relation).toBe('same');
    expect(judgePair(kalshiPlayer('BOR', 'Martin Borisiouk'), match).relation).toBe('inverse');
  });
});

describe('evidence', () => {
  it('lists every aspect once, in the domain order', () => {
    const v = judgePair(
      kalshi('KXWNBAGAME-26MAY09ATLMIN-ATL', 'Atlanta vs Minnesota', '2026-05-10T02:37:56Z'),
      poly('2139311', 'Atlanta Dream vs. Minnesota Lynx', '2026-05-10T08:02:22Z'),
    );
    expect(v.evidence.map((e) => e.aspect)).toEqual(['subject', 'proposition', 'threshold', 'window', 'stage', 'yes_side', 'settlement_source', 'mechanism']);
  });
});
