/**
 * A red-team set for the judge's precision: Kalshi / Polymarket / Polymarket US pairs written in the
 * venues' own rules wording (the structure and phrasing of the recorded texts, other entities, dates and
 * thresholds). Most are hard negatives; each carries the relation a careful reader decides from the texts
 * (`related` or `different` for a contract that can settle otherwise in an ordinary outcome).
 */
import type { MarketText } from '../../../src/domain/links.js';

export type RedTeamLabel = 'same' | 'inverse' | 'related' | 'different';
export interface RedTeamPair {
  kind: string;
  why: string;
  label: RedTeamLabel;
  a: MarketText;
  b: MarketText;
}

const K = (id: string, question: string, rules: string, close: string, extra: Partial<MarketText> = {}): MarketText => ({
  venue: 'kalshi',
  id,
  question,
  rules,
  closeTime: Date.parse(close),
  ...extra,
});
const P = (id: string, question: string, rules: string, close: string, extra: Partial<MarketText> = {}): MarketText => ({
  venue: 'polymarket',
  id,
  question,
  rules,
  closeTime: Date.parse(close),
  ...extra,
});
const U = (id: string, question: string, rules: string, close: string, extra: Partial<MarketText> = {}): MarketText => ({
  ...P(id, question, rules, close, extra),
  venue: 'polymarket_us',
});

// Boilerplate, as the venues write it.
const BRTI = (hour: string, day: string, strike: string) =>
  `If the simple average of the sixty seconds of CF Benchmarks' Bitcoin Real-Time Index (BRTI) before ${hour} on ${day} is above ${strike}, then the market resolves to Yes.`;
const ERTI = (hour: string, day: string, strike: string) =>
  `If the simple average of the sixty seconds of CF Benchmarks' Ether Real-Time Index (ERTI) before ${hour} on ${day} is above ${strike}, then the market resolves to Yes.`;
const BINANCE = (pair: string, hour: string, cmp: 'higher' | 'lower') =>
  `This market will resolve to "Yes" if the Binance 1 minute candle for ${pair} ${hour} in the ET timezone on the date specified in the title has a final "Close" price ${cmp} than the price specified in the title. Otherwise, this market will resolve to "No". The resolution source for this market is Binance, specifically the ${pair} "Close" prices currently available at https://www.binance.com/en/trade/${pair.replace('/', '_')} with "1m" and "Candles" selected on the top bar.`;
const KALSHI_GAME = (winner: string, game: string, date: string) =>
  `If ${winner} wins the ${game} originally scheduled for ${date}, then the market resolves to Yes.\n\nThe following market refers to the team who wins the ${game} originally scheduled for ${date}. If the game is postponed from its originally scheduled date but begins within 48 hours, the market will remain open and resolve based on the official final result. If the game is not started within 48 hours, the market will resolve to the a fair market price.`;
const US_GAME = (teams: string, league: string, date: string) =>
  `This market will settle to the winner of the ${teams} ${league} game scheduled for ${date}. Extra innings are included if played. If the game is delayed, postponed, or suspended and not rescheduled to a date within two weeks of the originally scheduled date, the market will settle to the last fair market price. Outcome sourced from the relevant governing body.`;
const KALSHI_STAT = (player: string, stat: string, game: string, date: string) =>
  `If ${player} records ${stat} in the ${game} originally scheduled for ${date}, then the market resolves to Yes.\n\nThe following market refers to ${player} in the ${game} originally scheduled for ${date}. If ${player} is active but never takes a snap, the market settles to the fair market price before game start.`;
const US_STAT = (player: string, stat: string, game: string, date: string) =>
  `This market will settle to Yes if ${player} records ${stat} in the ${game} scheduled for ${date}. Overtime is included if played. The listed player must participate in the game by taking at least one snap on offense, defense, or special teams; otherwise, the market will settle to the last fair market price. For purposes of this market, stat corrections enforced after the game has been completed will not count. Outcome sourced from the relevant governing body.`;
const KALSHI_HIGH = (place: string, day: string, cond: string) =>
  `If the highest temperature recorded at ${place} for ${day} as reported by the National Weather Service's Climatological Report (Daily), is ${cond}, then the market resolves to Yes.`;
const PM_HIGH = (station: string, day: string) =>
  `This market will resolve to the temperature range that contains the highest temperature recorded at the ${station} Station in degrees Fahrenheit on ${day}. The resolution source for this market will be information from Wunderground, specifically the highest temperature recorded for all times on this day by the Forecast for the ${station} Station once information is finalized. This market can not resolve "Yes" until all data for this date has been finalized.`;
const ELECTION = 'This market is eligible for accelerated resolution by a consensus of media calls. See full rules for details.';
const PM_ELECTION = (who: string, what: string) =>
  `This market will resolve to "Yes" if ${who} wins ${what}. Otherwise, this market will resolve to "No". The resolution of this market will be based on a consensus of credible reporting, or if there is ambiguity, the official certified results.`;

export const RED_TEAM: RedTeamPair[] = [
  // ---- YES/NO inverted ------------------------------------------------------------------------
  {
    kind: 'inverted',
    why: 'at or above 95,000 against below 95,000 at one instant: inverse',
    label: 'inverse',
    a: K(
      'KXBTCD-26OCT0217-T94999.99',
      'Bitcoin price on Oct 2, 2026 at 5pm EDT? — $95,000 or above',
      BRTI('5 PM EDT', 'Oct 2, 2026', '94999.99'),
      '2026-10-02T21:00:00Z',
      {
        strike: { type: 'greater', floor: 94999.99 },
      },
    ),
    b: P('3100201', 'Bitcoin below 95,000 on October 2, 5PM ET?', BINANCE('BTC/USDT', '17:00', 'lower'), '2026-10-02T21:00:00Z'),
  },
  {
    kind: 'inverted',
    why: 'one MLB game, YES on the Yankees on Kalshi and on the Red Sox on Polymarket US: no draw in MLB',
    label: 'inverse',
    a: K(
      'KXMLBGAME-26SEP141905NYYBOS-NYY',
      'New York Y vs Boston',
      KALSHI_GAME('New York Y', 'New York Y vs Boston professional baseball game', 'Sep 14, 2026'),
      '2026-09-15T02:00:00Z',
      { yesSide: 'New York Y' },
    ),
    b: U(
      'aec-mlb-nyy-bos-2026-09-14',
      'Who will win in the upcoming baseball event Yankees vs Red Sox scheduled for September 14, 2026 at 11:05 PM UTC? [outcome: Red Sox]',
      US_GAME('Yankees vs Red Sox', 'MLB', 'Sep 14, 2026'),
      '2026-09-28T23:05:00Z',
    ),
  },
  {
    kind: 'inverted',
    why: 'a football (soccer) match with YES on opposite teams: a draw settles both NO',
    label: 'related',
    a: K(
      'KXEPLGAME-26SEP19ARSCHE-ARS',
      'Arsenal vs Chelsea',
      'If Arsenal wins the Arsenal vs Chelsea professional soccer game originally scheduled for Sep 19, 2026, then the market resolves to Yes.\n\nThe following market refers to the team who wins the game in regulation time (90 minutes plus stoppage time). If the game ends in a draw, the market resolves to No.',
      '2026-09-19T16:30:00Z',
      { yesSide: 'Arsenal' },
    ),
    b: P(
      '3100202',
      'Will Chelsea FC win on 2026-09-19?',
      'In the upcoming EPL game, scheduled for September 19, 2026, between Arsenal FC and Chelsea FC:\nThis market will resolve to "Yes" if Chelsea FC wins the game.\nThis market will resolve to "No" if Arsenal FC wins or the game ends in a draw.',
      '2026-09-19T16:30:00Z',
    ),
  },
  {
    kind: 'inverted',
    why: 'an NFL game with YES on opposite teams: a tie settles both NO',
    label: 'related',
    a: K(
      'KXNFLGAME-26SEP20KCDEN-KC',
      'Kansas City at Denver',
      KALSHI_GAME('Kansas City', 'Kansas City at Denver professional football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
      { yesSide: 'Kansas City' },
    ),
    b: U(
      'aec-nfl-kc-den-2026-09-20',
      'Who will win in the upcoming football event Chiefs vs Broncos scheduled for September 20, 2026 at 8:25 PM UTC? [outcome: Broncos]',
      'This market will settle to the winner of the Chiefs vs Broncos NFL game scheduled for Sep 20, 2026. Overtime is included if played. If the game ends in a tie, this market will settle to 50-50. If the game is delayed, postponed, or suspended and not rescheduled to a date within two weeks of the originally scheduled date, the market will settle to the last fair market price.',
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'inverted',
    why: 'a team to win against the same match to end in a draw',
    label: 'related',
    a: K(
      'KXEPLGAME-26SEP19ARSCHE-ARS',
      'Arsenal vs Chelsea',
      'If Arsenal wins the Arsenal vs Chelsea professional soccer game originally scheduled for Sep 19, 2026, then the market resolves to Yes.',
      '2026-09-19T16:30:00Z',
      { yesSide: 'Arsenal' },
    ),
    b: P(
      '3100203',
      'Will Arsenal FC vs. Chelsea FC end in a draw?',
      'In the upcoming EPL game, scheduled for September 19, 2026, between Arsenal FC and Chelsea FC:\nThis market will resolve to "Yes" if the game ends in a draw.',
      '2026-09-19T16:30:00Z',
    ),
  },
  {
    kind: 'inverted',
    why: 'the same statement, one side negated ("not"): a negation is inverse only with exactly two outcomes',
    label: 'related',
    a: K(
      'KXGOVSHUT-26OCT01',
      'Will the federal government shut down before Oct 1, 2026?',
      'If the United States federal government enters a shutdown before Oct 1, 2026, then the market resolves to Yes.',
      '2026-10-01T04:00:00Z',
    ),
    b: P(
      '3100204',
      'Will Congress avoid a government shutdown by September 30?',
      'This market will resolve to "Yes" if the United States federal government does not enter a shutdown by September 30, 2026, 11:59 PM ET. A shutdown is defined as a lapse in appropriations resulting in a furlough of non-excepted federal employees.',
      '2026-10-01T04:00:00Z',
    ),
  },
  // ---- "within the top 5" against "#1 seed" ------------------------------------------------------
  {
    kind: 'top N vs #1 seed',
    why: '#1 seed against a top-5 finish in the standings',
    label: 'related',
    a: K(
      'KXNBAWESTSEED-27-OKC',
      'Will the Oklahoma City Thunder be the #1 seed in the Western Conference?',
      'If the Oklahoma City Thunder are the #1 seed in the Western Conference at the end of the 2026-27 NBA regular season, then the market resolves to Yes.',
      '2027-04-12T23:00:00Z',
    ),
    b: P(
      '3100205',
      'Will the Thunder finish top 5 in the West?',
      'This market will resolve to "Yes" if the Oklahoma City Thunder finish within the top 5 of the Western Conference standings at the end of the 2026-27 NBA regular season. Otherwise, this market will resolve to "No".',
      '2027-04-12T23:00:00Z',
    ),
  },
  {
    kind: 'top N vs #1 seed',
    why: 'a golfer to win against the same golfer to finish top 5',
    label: 'related',
    a: K(
      'KXPGATOUR-TOURCH26-SSCH',
      'Will Scottie Scheffler win the TOUR Championship?',
      'If Scottie Scheffler wins the 2026 TOUR Championship, then the market resolves to Yes.',
      '2026-08-30T23:00:00Z',
    ),
    b: P(
      '3100206',
      'Will Scottie Scheffler finish in the Top 5 at the 2026 TOUR Championship?',
      'This market will resolve to "Yes" if Scottie Scheffler finishes in the Top 5 (including ties) at the 2026 TOUR Championship. Otherwise, this market will resolve to "No".',
      '2026-08-30T23:00:00Z',
    ),
  },
  {
    kind: 'top N vs #1 seed',
    why: 'top 5 against top 10 of one tournament: top 5 implies top 10',
    label: 'related',
    a: K(
      'KXPGATOP5-BMW26-XSCH',
      'BMW Championship: Top 5 Finishers — Xander Schauffele',
      'If Xander Schauffele finishes in the top 5 at the 2026 BMW Championship, then the market resolves to Yes.',
      '2026-08-23T23:00:00Z',
    ),
    b: P(
      '3100207',
      'Will Xander Schauffele finish in the Top 10 at the 2026 BMW Championship?',
      'This market will resolve to "Yes" if Xander Schauffele finishes in the Top 10 (including ties) at the 2026 BMW Championship. Otherwise, this market will resolve to "No".',
      '2026-08-23T23:00:00Z',
    ),
  },
  {
    kind: 'top N vs #1 seed',
    why: "a top 5 in one tournament against a top 5 in the next week's tournament",
    label: 'different',
    a: K(
      'KXPGATOP5-BMW26-XSCH',
      'BMW Championship: Top 5 Finishers — Xander Schauffele',
      'If Xander Schauffele finishes in the top 5 at the 2026 BMW Championship, then the market resolves to Yes.',
      '2026-08-23T23:00:00Z',
    ),
    b: P(
      '3100208',
      'Will Xander Schauffele finish in the Top 5 at the 2026 TOUR Championship?',
      'This market will resolve to "Yes" if Xander Schauffele finishes in the Top 5 (including ties) at the 2026 TOUR Championship. Otherwise, this market will resolve to "No".',
      '2026-08-30T23:00:00Z',
    ),
  },
  {
    kind: 'top N vs #1 seed',
    why: 'to make the playoffs against to win the division',
    label: 'related',
    a: K(
      'KXMLBPLAYOFFS-26-SEA',
      'Will the Seattle Mariners make the playoffs?',
      'If the Seattle Mariners qualify for the 2026 MLB postseason, then the market resolves to Yes.',
      '2026-09-28T23:00:00Z',
    ),
    b: P(
      '3100209',
      'Will the Mariners win the AL West?',
      'This market will resolve to "Yes" if the Seattle Mariners win the 2026 AL West division title. Otherwise, this market will resolve to "No".',
      '2026-09-28T23:00:00Z',
    ),
  },
  // ---- a race against a standalone market --------------------------------------------------------
  {
    kind: 'race vs standalone',
    why: '$150k before $80k against $150k at any time in 2026',
    label: 'related',
    a: K(
      'KXBTCMAXY-26-150000',
      'Will Bitcoin hit $150,000 in 2026?',
      "If the CF Benchmarks' Bitcoin Real-Time Index (BRTI) is above $150,000.00 at any time before Jan 1, 2027, then the market resolves to Yes.",
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100210',
      'Bitcoin hits $150k or $80k first?',
      'This market will resolve to "Yes" if the Binance 1 minute candle for BTC/USDT has a final "High" price of $150,000 or higher before any Binance 1 minute candle for BTC/USDT has a final "Low" price of $80,000 or lower. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'race vs standalone',
    why: 'GPT-6 before Gemini 4 against GPT-6 in 2026',
    label: 'related',
    a: K(
      'KXGPT6-26',
      'Will OpenAI release GPT-6 before 2027?',
      'If OpenAI releases GPT-6 before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100211',
      'GPT-6 released before Gemini 4?',
      'This market will resolve to "Yes" if OpenAI releases GPT-6 before Google releases Gemini 4. Otherwise, this market will resolve to "No". A release means the model is made available to the general public.',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'race vs standalone',
    why: 'a ceasefire before a Trump–Putin meeting against a ceasefire by the end of 2026',
    label: 'related',
    a: K(
      'KXUKRCEASE-26',
      'Will Russia and Ukraine agree to a ceasefire before 2027?',
      'If Russia and Ukraine agree to a ceasefire before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100212',
      'Russia x Ukraine ceasefire before Trump meets Putin?',
      'This market will resolve to "Yes" if Russia and Ukraine agree to a ceasefire before Donald Trump and Vladimir Putin meet in person. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  // ---- weather stations ------------------------------------------------------------------------
  {
    kind: 'weather station',
    why: 'New York City: Central Park against LaGuardia',
    label: 'related',
    a: K(
      'KXHIGHNY-26SEP14-T84',
      'Highest temperature in NYC on Sep 14, 2026? — 85° or above',
      KALSHI_HIGH('Central Park, New York', 'September 14, 2026', 'greater than 84°'),
      '2026-09-15T04:59:00Z',
      { strike: { type: 'greater', floor: 84 } },
    ),
    b: P(
      '3100213',
      'Will the highest temperature in New York City be 85°F or higher on September 14?',
      PM_HIGH('LaGuardia Airport', "14 Sep '26"),
      '2026-09-15T12:00:00Z',
    ),
  },
  {
    kind: 'weather station',
    why: "Chicago: Midway against O'Hare",
    label: 'related',
    a: K(
      'KXHIGHCHI-26SEP14-B80.5',
      'Highest temperature in Chicago on Sep 14, 2026? — 80° to 81°',
      KALSHI_HIGH('Chicago Midway International Airport', 'September 14, 2026', 'between 80-81°'),
      '2026-09-15T04:59:00Z',
      { strike: { type: 'between', floor: 80, cap: 81 } },
    ),
    b: P(
      '3100214',
      'Will the highest temperature in Chicago be between 80-81°F on September 14?',
      PM_HIGH("Chicago O'Hare Intl Airport", "14 Sep '26"),
      '2026-09-15T12:00:00Z',
    ),
  },
  {
    kind: 'weather station',
    why: 'one station and day: the high against the low',
    label: 'related',
    a: K(
      'KXHIGHMIA-26SEP14-B78.5',
      'Highest temperature in Miami on Sep 14, 2026? — 78° to 79°',
      KALSHI_HIGH('Miami International Airport', 'September 14, 2026', 'between 78-79°'),
      '2026-09-15T04:59:00Z',
      { strike: { type: 'between', floor: 78, cap: 79 } },
    ),
    b: P(
      '3100215',
      'Will the lowest temperature in Miami be between 78-79°F on September 14?',
      PM_HIGH('Miami Intl Airport', "14 Sep '26").replaceAll('highest', 'lowest'),
      '2026-09-15T12:00:00Z',
    ),
  },
  {
    kind: 'weather station',
    why: 'one station, one bin, the next day',
    label: 'different',
    a: K(
      'KXHIGHMIA-26SEP14-B88.5',
      'Highest temperature in Miami on Sep 14, 2026? — 88° to 89°',
      KALSHI_HIGH('Miami International Airport', 'September 14, 2026', 'between 88-89°'),
      '2026-09-15T04:59:00Z',
      { strike: { type: 'between', floor: 88, cap: 89 } },
    ),
    b: P(
      '3100216',
      'Will the highest temperature in Miami be between 88-89°F on September 15?',
      PM_HIGH('Miami Intl Airport', "15 Sep '26"),
      '2026-09-16T12:00:00Z',
    ),
  },
  // ---- primary against general election --------------------------------------------------------
  {
    kind: 'primary vs general',
    why: 'the Democratic Senate primary against the Senate election',
    label: 'related',
    a: K(
      'KXGASENDPRI-26-JOSS',
      'Will Jon Ossoff win the Georgia Democratic Senate primary?',
      `If Jon Ossoff wins the 2026 Georgia Democratic Senate primary, then the market resolves to Yes.\n\n${ELECTION}`,
      '2026-05-19T23:00:00Z',
    ),
    b: P('3100217', 'Georgia Senate Election Winner: Jon Ossoff', PM_ELECTION('Jon Ossoff', 'the 2026 Georgia Senate election'), '2026-11-03T23:00:00Z'),
  },
  {
    kind: 'primary vs general',
    why: 'the 2028 Republican nominee against the 2028 presidential election',
    label: 'related',
    a: K(
      'KXRNOM28-JDV',
      'Will JD Vance be the 2028 Republican presidential nominee?',
      `If JD Vance is the 2028 Republican presidential nominee, then the market resolves to Yes.\n\n${ELECTION}`,
      '2028-08-31T23:00:00Z',
    ),
    b: P(
      '3100218',
      'Will JD Vance win the 2028 US Presidential Election?',
      PM_ELECTION('JD Vance', 'the 2028 US Presidential Election'),
      '2028-11-07T23:00:00Z',
    ),
  },
  {
    kind: 'primary vs general',
    why: 'the popular vote against the election',
    label: 'related',
    a: K(
      'KXPOPVOTE28-GNEW',
      'Will Gavin Newsom win the popular vote in the 2028 presidential election?',
      `If Gavin Newsom wins the popular vote in the 2028 presidential election, then the market resolves to Yes.\n\n${ELECTION}`,
      '2028-11-07T23:00:00Z',
    ),
    b: P(
      '3100219',
      'Will Gavin Newsom win the 2028 US Presidential Election?',
      PM_ELECTION('Gavin Newsom', 'the 2028 US Presidential Election'),
      '2028-11-07T23:00:00Z',
    ),
  },
  {
    kind: 'primary vs general',
    why: 'the mayoral primary against the mayoral election',
    label: 'related',
    a: K(
      'KXLAMAYORPRI-26-KBAS',
      'Will Karen Bass advance from the Los Angeles mayoral primary?',
      `If Karen Bass finishes in the top two of the 2026 Los Angeles mayoral primary, then the market resolves to Yes.\n\n${ELECTION}`,
      '2026-06-02T23:00:00Z',
    ),
    b: P(
      '3100220',
      'Will Karen Bass win the 2026 Los Angeles mayoral election?',
      PM_ELECTION('Karen Bass', 'the 2026 Los Angeles mayoral election'),
      '2026-11-03T23:00:00Z',
    ),
  },
  // ---- month against year -----------------------------------------------------------------------
  {
    kind: 'month vs year',
    why: 'a meeting in Oct 2026 against one by the end of 2026',
    label: 'related',
    a: K(
      'KXTRUMPMEETM-26NOV01-VPUT',
      'Will Donald Trump meet Vladimir Putin in Oct 2026?',
      'If Donald Trump and Vladimir Putin meet in person in Oct 2026, then the market resolves to Yes.',
      '2026-11-01T14:00:00Z',
    ),
    b: U(
      'pintc-meet-trump-2026-12-31-vlaput',
      'Vladimir Putin · Who will Trump meet with by the end of 2026?',
      'If Donald Trump meets in person with Vladimir Putin between Contract Issuance and December 31, 2026, 11:59 PM ET, this market will settle to Yes. Outcome verified by the listed individuals and major news agencies of record.',
      '2027-01-14T23:00:00Z',
    ),
  },
  {
    kind: 'month vs year',
    why: 'an album released in Sep 2026 against one released by the end of 2026',
    label: 'related',
    a: K(
      'KXTSALBUM-26SEP',
      'Will Taylor Swift release a new studio album in Sep 2026?',
      'If Taylor Swift releases a new studio album in Sep 2026, then the market resolves to Yes.',
      '2026-10-01T04:00:00Z',
    ),
    b: P(
      '3100221',
      'New Taylor Swift album in 2026?',
      'This market will resolve to "Yes" if Taylor Swift releases a new studio album by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'month vs year',
    why: 'a deal by June 30 against the same deal by December 31',
    label: 'related',
    a: K(
      'KXTIKTOKDEAL-26JUN30',
      'Will a TikTok divestiture deal close before July 2026?',
      "If a deal for the divestiture of TikTok's US operations closes before Jul 1, 2026, then the market resolves to Yes.",
      '2026-07-01T04:00:00Z',
    ),
    b: P(
      '3100222',
      'TikTok divestiture deal closes in 2026?',
      'This market will resolve to "Yes" if a deal for the divestiture of TikTok\'s US operations closes by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  // ---- thresholds --------------------------------------------------------------------------------
  {
    kind: 'threshold',
    why: 'CPI more than 0.3% against 0.3% or more (differ at exactly 0.3%)',
    label: 'related',
    a: K(
      'KXCPI-26SEP-T0.3',
      'Will CPI rise more than 0.3% in Sep 2026?',
      'If CPI rises more than 0.3% in Sep 2026, then the market resolves to Yes.\n\nThe Consumer Price Index for All Urban Consumers (CPI-U), seasonally adjusted, month-over-month, as reported by the Bureau of Labor Statistics.',
      '2026-10-14T12:25:00Z',
    ),
    b: P(
      '3100223',
      'September CPI increase 0.3% or more?',
      'This market will resolve to "Yes" if the seasonally adjusted month-over-month CPI increase in the US for September 2026 is 0.3% or more, as reported by the Bureau of Labor Statistics. Otherwise, this market will resolve to "No".',
      '2026-10-14T12:25:00Z',
    ),
  },
  {
    kind: 'threshold',
    why: 'the Fed funds upper bound above 3.50% against above 3.75%',
    label: 'related',
    a: K(
      'KXFED-26DEC-T3.50',
      'Fed rate after the Dec 2026 meeting? — Above 3.50%',
      "If the upper bound of the federal funds target range is above 3.50% following the Federal Reserve's Dec 16, 2026 meeting, then the market resolves to Yes.",
      '2026-12-16T18:55:00Z',
      { strike: { type: 'greater', floor: 3.5 } },
    ),
    b: P(
      '3100224',
      'Fed upper bound above 3.75% after December meeting?',
      'This market will resolve to "Yes" if the upper bound of the federal funds target range is above 3.75% following the Federal Reserve\'s Dec 16, 2026 meeting. Otherwise, this market will resolve to "No".',
      '2026-12-16T18:55:00Z',
    ),
  },
  {
    kind: 'threshold',
    why: 'a 25 bp cut against a cut of more than 25 bp',
    label: 'related',
    a: K(
      'KXFEDDECISION-26DEC-C25',
      'Fed decision in Dec 2026? — Cut 25bps',
      'If the Federal Reserve cuts the federal funds rate by 25 basis points at its Dec 16, 2026 meeting, then the market resolves to Yes.',
      '2026-12-16T18:55:00Z',
    ),
    b: P(
      '3100225',
      'Fed decreases interest rates by 50+ bps after December 2026 meeting?',
      'This market will resolve to "Yes" if the Federal Reserve decreases interest rates by 50 or more basis points at its Dec 16, 2026 meeting. Otherwise, this market will resolve to "No".',
      '2026-12-16T18:55:00Z',
    ),
  },
  {
    kind: 'threshold',
    why: 'GDP growth more than 2.0% against more than 2.5%',
    label: 'related',
    a: K(
      'KXGDP-26Q3-T2.0',
      'GDP growth in Q3 2026? — Above 2.0%',
      "If real GDP increases by more than 2.0% in Q3 2026, then the market resolves to Yes.\n\nThe annualized quarter-over-quarter growth rate in the Bureau of Economic Analysis's advance estimate.",
      '2026-10-29T12:25:00Z',
    ),
    b: P(
      '3100226',
      'US GDP growth in Q3 2026 above 2.5%?',
      'This market will resolve to "Yes" if real GDP increases by more than 2.5% in Q3 2026 according to the advance estimate of the Bureau of Economic Analysis. Otherwise, this market will resolve to "No".',
      '2026-10-29T12:25:00Z',
    ),
  },
  {
    kind: 'threshold',
    why: 'unemployment 4.5% or above against above 4.5%',
    label: 'related',
    a: K(
      'KXU3-26SEP-T4.5',
      'Unemployment rate in Sep 2026? — 4.5% or above',
      'If the unemployment rate is 4.5% or above for Sep 2026, then the market resolves to Yes.',
      '2026-10-02T12:25:00Z',
    ),
    b: P(
      '3100227',
      'Unemployment above 4.5% in September?',
      'This market will resolve to "Yes" if the unemployment rate is above 4.5% for Sep 2026, as reported by the Bureau of Labor Statistics. Otherwise, this market will resolve to "No".',
      '2026-10-02T12:25:00Z',
    ),
  },
  {
    kind: 'threshold',
    why: 'one instant, $95,000 against $97,000: the higher implies the lower',
    label: 'related',
    a: K(
      'KXBTCD-26OCT0217-T94999.99',
      'Bitcoin price on Oct 2, 2026 at 5pm EDT? — $95,000 or above',
      BRTI('5 PM EDT', 'Oct 2, 2026', '94999.99'),
      '2026-10-02T21:00:00Z',
      {
        strike: { type: 'greater', floor: 94999.99 },
      },
    ),
    b: P('3100228', 'Bitcoin above 97,000 on October 2, 5PM ET?', BINANCE('BTC/USDT', '17:00', 'higher'), '2026-10-02T21:00:00Z'),
  },
  {
    kind: 'threshold',
    why: 'a House majority of at least 220 seats against more than 220',
    label: 'related',
    a: K(
      'KXHOUSESEATS-26-R220',
      'Will Republicans win at least 220 House seats?',
      `If Republicans win at least 220 seats in the House of Representatives in the 2026 midterm elections, then the market resolves to Yes.\n\n${ELECTION}`,
      '2026-11-03T23:00:00Z',
    ),
    b: P(
      '3100229',
      'Republicans win more than 220 House seats?',
      PM_ELECTION('Republicans', 'more than 220 seats in the House of Representatives in the 2026 midterm elections'),
      '2026-11-03T23:00:00Z',
    ),
  },
  // ---- dates, times, settlement windows -----------------------------------------------------------
  {
    kind: 'date/time',
    why: 'one day, 5pm against 6pm',
    label: 'related',
    a: K(
      'KXETHD-26OCT0217-T2499.99',
      'Ethereum price on Oct 2, 2026 at 5pm EDT? — $2,500 or above',
      ERTI('5 PM EDT', 'Oct 2, 2026', '2499.99'),
      '2026-10-02T21:00:00Z',
      {
        strike: { type: 'greater', floor: 2499.99 },
      },
    ),
    b: P('3100230', 'Ethereum above 2,500 on October 2, 6PM ET?', BINANCE('ETH/USDT', '18:00', 'higher'), '2026-10-02T22:00:00Z'),
  },
  {
    kind: 'date/time',
    why: "a stock's close against touching the price by the same day",
    label: 'related',
    a: K(
      'KXTSLA-26DEC31-T500',
      'Will TSLA close at or above $500 EOD Dec 31, 2026?',
      'If the official closing price of Tesla, Inc. (TSLA) on Dec 31, 2026 as reported by Nasdaq is at or above $500, then the market resolves to Yes.',
      '2026-12-31T21:00:00Z',
    ),
    b: P(
      '3100231',
      'Will Tesla hit $500 by December 31, 2026?',
      'This market will resolve to "Yes" if any Nasdaq trade of Tesla (TSLA) is executed at $500.00 or higher between market creation and December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'date/time',
    why: "a doubleheader's first game against its second",
    label: 'different',
    a: K(
      'KXMLBGAME-26SEP191310NYMATL-NYM',
      'New York M vs Atlanta',
      KALSHI_GAME('New York M', 'New York M vs Atlanta professional baseball game', 'Sep 19, 2026 at 1:10 PM EDT'),
      '2026-09-19T20:30:00Z',
      { yesSide: 'New York M' },
    ),
    b: U(
      'aec-mlb-nym-atl-2026-09-19-g2',
      'Who will win in the upcoming baseball event Mets vs Braves scheduled for September 19, 2026 at 11:15 PM UTC? [outcome: Mets]',
      US_GAME('Mets vs Braves', 'MLB', 'Sep 19, 2026'),
      '2026-10-03T23:15:00Z',
    ),
  },
  {
    kind: 'date/time',
    why: "a series' Monday game against its Tuesday game",
    label: 'different',
    a: K(
      'KXMLBGAME-26SEP141940MIAARI-MIA',
      'Miami vs Arizona',
      KALSHI_GAME('Miami', 'Miami vs Arizona professional baseball game', 'Sep 14, 2026 at 9:40 PM EDT'),
      '2026-09-15T04:40:00Z',
      { yesSide: 'Miami' },
    ),
    b: U(
      'aec-mlb-mia-ari-2026-09-15',
      'Who will win in the upcoming baseball event Marlins vs Diamondbacks scheduled for September 16, 2026 at 1:40 AM UTC? [outcome: Marlins]',
      US_GAME('Marlins vs Diamondbacks', 'MLB', 'Sep 15, 2026'),
      '2026-09-30T01:40:00Z',
    ),
  },
  {
    kind: 'date/time',
    why: 'the September FOMC meeting against the October one',
    label: 'related',
    a: K(
      'KXFEDDECISION-26SEP-C25',
      'Fed decision in Sep 2026? — Cut 25bps',
      'If the Federal Reserve cuts the federal funds rate by 25 basis points at its Sep 16, 2026 meeting, then the market resolves to Yes.',
      '2026-09-16T17:55:00Z',
    ),
    b: P(
      '3100232',
      'Fed decreases interest rates by 25 bps after October 2026 meeting?',
      'This market will resolve to "Yes" if the Federal Reserve decreases interest rates by 25 basis points at its Oct 28, 2026 meeting. Otherwise, this market will resolve to "No".',
      '2026-10-28T17:55:00Z',
    ),
  },
  // ---- player props -----------------------------------------------------------------------------
  {
    kind: 'player prop',
    why: 'passing yards against rushing yards',
    label: 'related',
    a: K(
      'KXNFLPASSYDS-26SEP20KCDEN-KCPMAHOMES15-250',
      'Patrick Mahomes: 250+ passing yards',
      KALSHI_STAT('Patrick Mahomes', '250+ passing yards', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-kc-den-2026-09-20-ryd-pmah-gte25',
      'Patrick Mahomes · Will Patrick Mahomes record 25+ rushing yards?',
      US_STAT('Patrick Mahomes', 'at least 25 rushing yards', 'Kansas City Chiefs vs Denver Broncos professional football game', 'Sep 20, 2026'),
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: '250+ against over 250.5 (differ at exactly 250)',
    label: 'related',
    a: K(
      'KXNFLPASSYDS-26SEP20KCDEN-KCPMAHOMES15-250',
      'Patrick Mahomes: 250+ passing yards',
      KALSHI_STAT('Patrick Mahomes', '250+ passing yards', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-kc-den-2026-09-20-pyd-pmah-o250.5',
      'Patrick Mahomes · Over 250.5 passing yards?',
      US_STAT('Patrick Mahomes', 'over 250.5 passing yards', 'Kansas City Chiefs vs Denver Broncos professional football game', 'Sep 20, 2026'),
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: 'the same line for another player of the same game',
    label: 'different',
    a: K(
      'KXNFLPASSYDS-26SEP20KCDEN-KCPMAHOMES15-250',
      'Patrick Mahomes: 250+ passing yards',
      KALSHI_STAT('Patrick Mahomes', '250+ passing yards', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-kc-den-2026-09-20-pyd-bnix-gte250',
      'Bo Nix · Will Bo Nix record 250+ passing yards?',
      US_STAT('Bo Nix', 'at least 250 passing yards', 'Kansas City Chiefs vs Denver Broncos professional football game', 'Sep 20, 2026'),
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: "the same player and line in next week's game",
    label: 'different',
    a: K(
      'KXNFLPASSYDS-26SEP20KCDEN-KCPMAHOMES15-250',
      'Patrick Mahomes: 250+ passing yards',
      KALSHI_STAT('Patrick Mahomes', '250+ passing yards', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-lv-kc-2026-09-27-pyd-pmah-gte250',
      'Patrick Mahomes · Will Patrick Mahomes record 250+ passing yards?',
      US_STAT('Patrick Mahomes', 'at least 250 passing yards', 'Las Vegas Raiders vs Kansas City Chiefs professional football game', 'Sep 27, 2026'),
      '2026-10-11T20:25:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: 'points against rebounds, one line',
    label: 'related',
    a: K(
      'KXNBAPTS-26OCT21OKCHOU-OKCSGILGEOUSALEXANDER2-25',
      'Shai Gilgeous-Alexander: 25+ points',
      'If Shai Gilgeous-Alexander records 25+ points in the Oklahoma City vs Houston professional basketball game originally scheduled for Oct 21, 2026, then the market resolves to Yes.',
      '2026-10-22T02:30:00Z',
    ),
    b: U(
      'astatc-nba-okc-hou-2026-10-21-reb-sgil-gte25',
      'Shai Gilgeous-Alexander · Will Shai Gilgeous-Alexander record 25+ rebounds?',
      'This market will settle to Yes if Shai Gilgeous-Alexander records at least 25 rebounds in the Oklahoma City Thunder vs Houston Rockets professional basketball game scheduled for Oct 21, 2026. Overtime is included if played.',
      '2026-11-04T00:30:00Z',
    ),
  },
  // ---- a game against the series --------------------------------------------------------------
  {
    kind: 'game vs series',
    why: 'game 3 of the World Series against the World Series',
    label: 'related',
    a: K(
      'KXMLBGAME-26OCT272008LADNYY-LAD',
      'Los Angeles D vs New York Y',
      KALSHI_GAME('Los Angeles D', 'Los Angeles D vs New York Y professional baseball game', 'Oct 27, 2026'),
      '2026-10-28T03:00:00Z',
      { yesSide: 'Los Angeles D' },
    ),
    b: P(
      '3100233',
      'World Series Champion 2026: Los Angeles Dodgers',
      'This market will resolve to "Yes" if the Los Angeles Dodgers win the 2026 World Series. Otherwise, this market will resolve to "No".',
      '2026-11-05T23:59:00Z',
    ),
  },
  {
    kind: 'game vs series',
    why: 'an NBA Finals game against the NBA Finals',
    label: 'related',
    a: K(
      'KXNBASERIES-27NBAFINALS-OKC',
      'Will the Oklahoma City Thunder win the 2027 NBA Finals?',
      'If the Oklahoma City Thunder win the 2027 NBA Finals, then the market resolves to Yes.',
      '2027-06-25T03:00:00Z',
    ),
    b: U(
      'aec-nba-okc-bos-2027-06-06',
      'Who will win in the upcoming basketball event Thunder vs Celtics scheduled for June 7, 2027 at 12:30 AM UTC? [outcome: Thunder]',
      'This market will settle to the winner of the Thunder vs Celtics NBA game scheduled for Jun 6, 2027. Overtime is included if played. If the game is delayed, postponed, or suspended and not rescheduled to a date within two weeks of the originally scheduled date, the market will settle to the last fair market price.',
      '2027-06-21T00:30:00Z',
    ),
  },
  {
    kind: 'game vs series',
    why: 'a tennis match against the tournament',
    label: 'related',
    a: K(
      'KXUSOPEN-26-JSIN',
      'Will Jannik Sinner win the 2026 US Open?',
      "If Jannik Sinner wins the 2026 US Open men's singles title, then the market resolves to Yes.",
      '2026-09-13T23:00:00Z',
    ),
    b: P(
      '3100234',
      'US Open: Jannik Sinner vs Carlos Alcaraz',
      'This market will resolve to "Jannik Sinner" if Jannik Sinner wins the 2026 US Open men\'s singles final against Carlos Alcaraz. This market will resolve to "Carlos Alcaraz" if Carlos Alcaraz wins.',
      '2026-09-13T23:00:00Z',
      { yesSide: 'Jannik Sinner' },
    ),
  },
  // ---- awards -------------------------------------------------------------------------------------
  {
    kind: 'awards',
    why: 'to win Best Picture against to be nominated for it',
    label: 'related',
    a: K(
      'KXOSCARPIC-27-SINN',
      'Will Sinners win Best Picture?',
      'If Sinners wins Best Picture at the 2027 Academy Awards, then the market resolves to Yes.',
      '2027-03-14T23:00:00Z',
    ),
    b: P(
      '3100235',
      'Will Sinners be nominated for Best Picture?',
      'This market will resolve to "Yes" if Sinners is nominated for Best Picture at the 2027 Academy Awards. Otherwise, this market will resolve to "No".',
      '2027-01-21T23:00:00Z',
    ),
  },
  {
    kind: 'awards',
    why: 'Best Actor against Best Supporting Actor',
    label: 'related',
    a: K(
      'KXOSCARACTO-27-JELO',
      'Will Jacob Elordi win Best Actor?',
      'If Jacob Elordi wins Best Actor at the 2027 Academy Awards, then the market resolves to Yes.',
      '2027-03-14T23:00:00Z',
    ),
    b: P(
      '3100236',
      'Will Jacob Elordi win Best Supporting Actor?',
      'This market will resolve to "Yes" if Jacob Elordi wins Best Supporting Actor at the 2027 Academy Awards. Otherwise, this market will resolve to "No".',
      '2027-03-14T23:00:00Z',
    ),
  },
  {
    kind: 'awards',
    why: 'MVP against Defensive Player of the Year',
    label: 'related',
    a: K(
      'KXNBAMVP-27-VWEM',
      'Will Victor Wembanyama win the 2026-27 NBA MVP?',
      'If Victor Wembanyama wins the 2026-27 NBA Most Valuable Player award, then the market resolves to Yes.',
      '2027-05-31T23:00:00Z',
    ),
    b: P(
      '3100237',
      'Will Victor Wembanyama win the 2026-27 NBA Defensive Player of the Year?',
      'This market will resolve to "Yes" if Victor Wembanyama wins the 2026-27 NBA Defensive Player of the Year award. Otherwise, this market will resolve to "No".',
      '2027-05-31T23:00:00Z',
    ),
  },
  // ---- company events -----------------------------------------------------------------------------
  {
    kind: 'company',
    why: 'robotaxis in Austin against in California',
    label: 'related',
    a: K(
      'KXTESLAROBOTAXI-26-AUS',
      'Will Tesla launch a driverless robotaxi service in Austin before 2027?',
      'If Tesla launches a driverless robotaxi service open to the public in Austin before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100238',
      'Tesla launches driverless robotaxi service in California in 2026?',
      'This market will resolve to "Yes" if Tesla launches a driverless robotaxi service open to the public in California by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'company',
    why: 'Apple announces against Apple releases a foldable iPhone',
    label: 'related',
    a: K(
      'KXAPPLEFOLD-26',
      'Will Apple announce a foldable iPhone before 2027?',
      'If Apple announces a foldable iPhone before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100239',
      'Foldable iPhone released in 2026?',
      'This market will resolve to "Yes" if Apple releases a foldable iPhone by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'company',
    why: 'Nvidia the largest company against Nvidia above $5T',
    label: 'related',
    a: K(
      'KXLARGESTCO-26DEC31-NVDA',
      'Will Nvidia be the largest company in the world at the end of 2026?',
      'If Nvidia is the largest company in the world by market capitalization on Dec 31, 2026, then the market resolves to Yes.',
      '2026-12-31T21:00:00Z',
    ),
    b: P(
      '3100240',
      'Nvidia market cap above $5T on December 31?',
      'This market will resolve to "Yes" if Nvidia has a market capitalization above $5 trillion on Dec 31, 2026, per companiesmarketcap.com. Otherwise, this market will resolve to "No".',
      '2026-12-31T21:00:00Z',
    ),
  },
  {
    kind: 'company',
    why: 'a CEO out against a CEO out by a different date',
    label: 'related',
    a: K(
      'KXCEOOUT-26-TCOOK',
      'Will Tim Cook leave as Apple CEO before 2027?',
      'If Tim Cook ceases to be the CEO of Apple before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100241',
      'Tim Cook out as Apple CEO by June 30?',
      'This market will resolve to "Yes" if Tim Cook ceases to be the CEO of Apple by June 30, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-06-30T23:59:00Z',
    ),
  },
  // ---- postponement clauses --------------------------------------------------------------------
  {
    kind: 'postponement',
    why: 'one game: Kalshi 48 hours, Polymarket US two weeks: the same contract, the windows are basis risk',
    label: 'same',
    a: K(
      'KXMLBGAME-26SEP141905NYYBOS-NYY',
      'New York Y vs Boston',
      KALSHI_GAME('New York Y', 'New York Y vs Boston professional baseball game', 'Sep 14, 2026'),
      '2026-09-15T02:00:00Z',
      { yesSide: 'New York Y' },
    ),
    b: U(
      'aec-mlb-nyy-bos-2026-09-14',
      'Who will win in the upcoming baseball event Yankees vs Red Sox scheduled for September 14, 2026 at 11:05 PM UTC? [outcome: Yankees]',
      US_GAME('Yankees vs Red Sox', 'MLB', 'Sep 14, 2026'),
      '2026-09-28T23:05:00Z',
    ),
  },
  // ---- true same / inverse with full rules --------------------------------------------------------
  {
    kind: 'true same',
    why: 'one instant, one threshold (BRTI against Binance: a source as basis risk)',
    label: 'same',
    a: K(
      'KXBTCD-26OCT0217-T94999.99',
      'Bitcoin price on Oct 2, 2026 at 5pm EDT? — $95,000 or above',
      BRTI('5 PM EDT', 'Oct 2, 2026', '94999.99'),
      '2026-10-02T21:00:00Z',
      {
        strike: { type: 'greater', floor: 94999.99 },
      },
    ),
    b: P('3100242', 'Bitcoin above 95,000 on October 2, 5PM ET?', BINANCE('BTC/USDT', '17:00', 'higher'), '2026-10-02T21:00:00Z'),
  },
  {
    kind: 'true same',
    why: 'Ethereum at one instant and threshold',
    label: 'same',
    a: K(
      'KXETHD-26OCT0217-T2499.99',
      'Ethereum price on Oct 2, 2026 at 5pm EDT? — $2,500 or above',
      ERTI('5 PM EDT', 'Oct 2, 2026', '2499.99'),
      '2026-10-02T21:00:00Z',
      {
        strike: { type: 'greater', floor: 2499.99 },
      },
    ),
    b: P('3100243', 'Ethereum above 2,500 on October 2, 5PM ET?', BINANCE('ETH/USDT', '17:00', 'higher'), '2026-10-02T21:00:00Z'),
  },
  {
    kind: 'true same',
    why: 'at least 250 against 250+',
    label: 'same',
    a: K(
      'KXNFLPASSYDS-26SEP20KCDEN-KCPMAHOMES15-250',
      'Patrick Mahomes: 250+ passing yards',
      KALSHI_STAT('Patrick Mahomes', '250+ passing yards', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-kc-den-2026-09-20-pyd-pmah-gte250',
      'Patrick Mahomes · Will Patrick Mahomes record 250+ passing yards?',
      US_STAT('Patrick Mahomes', 'at least 250 passing yards', 'Kansas City Chiefs vs Denver Broncos professional football game', 'Sep 20, 2026'),
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'a top-10 finish in one tournament',
    label: 'same',
    a: K(
      'KXPGATOP10-BMW26-XSCH',
      'BMW Championship: Top 10 Finishers — Xander Schauffele',
      'If Xander Schauffele finishes in the top 10 at the 2026 BMW Championship, then the market resolves to Yes.',
      '2026-08-23T23:00:00Z',
    ),
    b: P(
      '3100244',
      'Will Xander Schauffele finish in the Top 10 at the 2026 BMW Championship?',
      'This market will resolve to "Yes" if Xander Schauffele finishes in the Top 10 (including ties) at the 2026 BMW Championship. Otherwise, this market will resolve to "No".',
      '2026-08-23T23:00:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'one station, one day, one bin',
    label: 'same',
    a: K(
      'KXHIGHMIA-26SEP14-B88.5',
      'Highest temperature in Miami on Sep 14, 2026? — 88° to 89°',
      KALSHI_HIGH('Miami International Airport', 'September 14, 2026', 'between 88-89°'),
      '2026-09-15T04:59:00Z',
      { strike: { type: 'between', floor: 88, cap: 89 } },
    ),
    b: P(
      '3100245',
      'Will the highest temperature in Miami be between 88-89°F on September 14?',
      PM_HIGH('Miami Intl Airport', "14 Sep '26"),
      '2026-09-15T12:00:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'the nomination in the two wordings',
    label: 'same',
    a: K(
      'KXDNOM28-GNEW',
      'Will Gavin Newsom be the 2028 Democratic presidential nominee?',
      `If Gavin Newsom is the 2028 Democratic presidential nominee, then the market resolves to Yes.\n\n${ELECTION}`,
      '2028-08-31T23:00:00Z',
    ),
    b: P(
      '3100246',
      'Will Gavin Newsom win the 2028 Democratic presidential nomination?',
      PM_ELECTION('Gavin Newsom', 'the 2028 Democratic presidential nomination'),
      '2028-08-31T23:00:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'an in-person meeting by the end of 2026 in the two wordings',
    label: 'same',
    a: K(
      'KXTRUMPMEET-26-VPUT',
      'Will Donald Trump meet Vladimir Putin in person before 2027?',
      'If Donald Trump and Vladimir Putin meet in person before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: U(
      'pintc-meet-trump-2026-12-31-vlaput',
      'Vladimir Putin · Who will Trump meet with by the end of 2026?',
      'If Donald Trump meets in person with Vladimir Putin between Contract Issuance and December 31, 2026, 11:59 PM ET, this market will settle to Yes. Outcome verified by the listed individuals and major news agencies of record.',
      '2027-01-14T23:00:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'a 25 bp cut at one meeting',
    label: 'same',
    a: K(
      'KXFEDDECISION-26DEC-C25',
      'Fed decision in Dec 2026? — Cut 25bps',
      'If the Federal Reserve cuts the federal funds rate by 25 basis points at its Dec 16, 2026 meeting, then the market resolves to Yes.',
      '2026-12-16T18:55:00Z',
    ),
    b: P(
      '3100247',
      'Fed decreases interest rates by 25 bps after December 2026 meeting?',
      'This market will resolve to "Yes" if the Federal Reserve decreases interest rates by 25 basis points at its Dec 16, 2026 meeting. Otherwise, this market will resolve to "No".',
      '2026-12-16T18:55:00Z',
    ),
  },
  {
    kind: 'true same',
    why: "the Ballon d'Or",
    label: 'same',
    a: K(
      'KXBALLONDOR-26-LYAM',
      "Will Lamine Yamal win the 2026 Ballon d'Or?",
      "If Lamine Yamal wins the 2026 Ballon d'Or, then the market resolves to Yes.",
      '2026-10-30T23:00:00Z',
    ),
    b: P(
      '3100248',
      "Will Lamine Yamal win the 2026 Ballon d'Or?",
      'This market will resolve to "Yes" if Lamine Yamal wins the 2026 Ballon d\'Or. Otherwise, this market will resolve to "No".',
      '2026-10-30T23:00:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'a release by the end of 2026 ("before Jan 1, 2027" is "by December 31, 2026, 11:59 PM ET")',
    label: 'same',
    a: K(
      'KXGPT6-26',
      'Will OpenAI release GPT-6 before 2027?',
      'If OpenAI releases GPT-6 before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100249',
      'GPT-6 released in 2026?',
      'This market will resolve to "Yes" if OpenAI releases GPT-6 by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'true inverse',
    why: 'one NBA game, YES on opposite teams',
    label: 'inverse',
    a: K(
      'KXNBAGAME-26OCT21OKCHOU-OKC',
      'Oklahoma City vs Houston',
      KALSHI_GAME('Oklahoma City', 'Oklahoma City vs Houston professional basketball game', 'Oct 21, 2026'),
      '2026-10-22T02:30:00Z',
      { yesSide: 'Oklahoma City' },
    ),
    b: U(
      'aec-nba-okc-hou-2026-10-21',
      'Who will win in the upcoming basketball event Thunder vs Rockets scheduled for October 22, 2026 at 12:00 AM UTC? [outcome: Rockets]',
      'This market will settle to the winner of the Thunder vs Rockets NBA game scheduled for Oct 21, 2026. Overtime is included if played. If the game is delayed, postponed, or suspended and not rescheduled to a date within two weeks of the originally scheduled date, the market will settle to the last fair market price.',
      '2026-11-05T00:00:00Z',
    ),
  },
  // ---- more traps: one name, two teams or two statistics ------------------------------------------
  {
    kind: 'fixture',
    why: 'Real Madrid vs Barcelona on one day: the basketball game against the football match',
    label: 'different',
    a: K(
      'KXACBGAME-26OCT041800RMABAR-RMA',
      'Real Madrid vs FC Barcelona',
      KALSHI_GAME('Real Madrid', 'Real Madrid vs FC Barcelona professional basketball game', 'Oct 4, 2026'),
      '2026-10-04T18:00:00Z',
      { yesSide: 'Real Madrid' },
    ),
    b: P(
      '3100250',
      'Will Real Madrid CF win on 2026-10-04?',
      'In the upcoming La Liga game, scheduled for October 4, 2026, between Real Madrid CF and FC Barcelona:\nThis market will resolve to "Yes" if Real Madrid CF wins the game.\nThis market will resolve to "No" if FC Barcelona wins or the game ends in a draw.',
      '2026-10-04T19:00:00Z',
    ),
  },
  {
    kind: 'fixture',
    why: "Arsenal vs Chelsea on one day: the men's match against the women's",
    label: 'different',
    a: K(
      'KXEPLGAME-26SEP19ARSCHE-ARS',
      'Arsenal vs Chelsea',
      'If Arsenal wins the Arsenal vs Chelsea professional soccer game originally scheduled for Sep 19, 2026, then the market resolves to Yes.\n\nThe following market refers to the team who wins the game in regulation time (90 minutes plus stoppage time). If the game ends in a draw, the market resolves to No.',
      '2026-09-19T16:30:00Z',
      { yesSide: 'Arsenal' },
    ),
    b: P(
      '3100251',
      'Will Arsenal Women win on 2026-09-19?',
      'In the upcoming WSL game, scheduled for September 19, 2026, between Arsenal Women and Chelsea Women:\nThis market will resolve to "Yes" if Arsenal Women wins the game.\nThis market will resolve to "No" if Chelsea Women wins or the game ends in a draw.',
      '2026-09-19T13:00:00Z',
    ),
  },
  {
    kind: 'fixture',
    why: 'a hockey game including overtime against the same team in regulation time',
    label: 'related',
    a: K(
      'KXNHLGAME-26OCT10NYRBOS-NYR',
      'New York R vs Boston',
      'If New York R wins the New York R vs Boston professional hockey game originally scheduled for Oct 10, 2026, then the market resolves to Yes. Overtime and shootouts are included.',
      '2026-10-10T23:00:00Z',
      { yesSide: 'New York R' },
    ),
    b: P(
      '3100252',
      'Will the New York Rangers win in regulation vs. Boston Bruins?',
      'This market will resolve to "Yes" if the New York Rangers win their game against the Boston Bruins scheduled for October 10, 2026 in regulation time (60 minutes). If the game goes to overtime, this market will resolve to "No".',
      '2026-10-10T23:00:00Z',
    ),
  },
  {
    kind: 'fixture',
    why: 'the match against its first half',
    label: 'related',
    a: K(
      'KXNBAGAME-26OCT21OKCHOU-OKC',
      'Oklahoma City vs Houston',
      KALSHI_GAME('Oklahoma City', 'Oklahoma City vs Houston professional basketball game', 'Oct 21, 2026'),
      '2026-10-22T02:30:00Z',
      { yesSide: 'Oklahoma City' },
    ),
    b: P(
      '3100253',
      'Thunder vs. Rockets: 1H Moneyline',
      'This market refers to the first half of the NBA game between the Oklahoma City Thunder and the Houston Rockets scheduled for October 21, 2026. This market will resolve to "Thunder" if the Oklahoma City Thunder lead at the end of the first half; if the score is tied at halftime, the market resolves 50-50.',
      '2026-10-22T01:30:00Z',
      { yesSide: 'Thunder' },
    ),
  },
  {
    kind: 'player prop',
    why: 'first-half passing yards against the game',
    label: 'related',
    a: K(
      'KXNFLPASSYDS-26SEP20KCDEN-KCPMAHOMES15-150',
      'Patrick Mahomes: 150+ passing yards',
      KALSHI_STAT('Patrick Mahomes', '150+ passing yards', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-kc-den-2026-09-20-1hpyd-pmah-gte150',
      'Patrick Mahomes · Will Patrick Mahomes record 150+ first half passing yards?',
      US_STAT(
        'Patrick Mahomes',
        'at least 150 passing yards in the first half',
        'Kansas City Chiefs vs Denver Broncos professional football game',
        'Sep 20, 2026',
      ),
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: 'passing touchdowns against touchdowns of any kind',
    label: 'related',
    a: K(
      'KXNFLPASSTDS-26SEP20KCDEN-KCPMAHOMES15-2',
      'Patrick Mahomes: 2+ passing touchdowns',
      KALSHI_STAT('Patrick Mahomes', '2+ passing touchdowns', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-kc-den-2026-09-20-td-pmah-gte2',
      'Patrick Mahomes · Will Patrick Mahomes score 2+ touchdowns?',
      US_STAT('Patrick Mahomes', 'at least 2 touchdowns', 'Kansas City Chiefs vs Denver Broncos professional football game', 'Sep 20, 2026'),
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: 'a season average against one game',
    label: 'related',
    a: K(
      'KXNBAPTS-26OCT21OKCHOU-OKCSGILGEOUSALEXANDER2-30',
      'Shai Gilgeous-Alexander: 30+ points',
      'If Shai Gilgeous-Alexander records 30+ points in the Oklahoma City vs Houston professional basketball game originally scheduled for Oct 21, 2026, then the market resolves to Yes.',
      '2026-10-22T02:30:00Z',
    ),
    b: P(
      '3100254',
      'Will Shai Gilgeous-Alexander average 30+ points per game in the 2026-27 season?',
      'This market will resolve to "Yes" if Shai Gilgeous-Alexander records an average of at least 30 points per game in the 2026-27 NBA regular season. Otherwise, this market will resolve to "No".',
      '2027-04-12T23:00:00Z',
    ),
  },
  {
    kind: 'crypto',
    why: 'a dip to $80,000 in October against above $80,000 on October 31',
    label: 'related',
    a: K(
      'KXBTCMINMON-26OCT-80000',
      'Will Bitcoin dip to $80,000 in October 2026?',
      "If the CF Benchmarks' Bitcoin Real-Time Index (BRTI) is below $80,000.00 at any time in Oct 2026, then the market resolves to Yes.",
      '2026-11-01T04:00:00Z',
    ),
    b: P(
      '3100255',
      'Bitcoin above 80,000 on October 31?',
      BINANCE('BTC/USDT', '12:00', 'higher').replace('12:00 in the ET timezone', '12:00 in the ET timezone (noon)'),
      '2026-10-31T16:00:00Z',
    ),
  },
  {
    kind: 'crypto',
    why: 'Bitcoin Cash against Bitcoin, one threshold and instant',
    label: 'different',
    a: P('3100256', 'Bitcoin Cash above 500 on October 2, 5PM ET?', BINANCE('BCH/USDT', '17:00', 'higher'), '2026-10-02T21:00:00Z'),
    b: P('3100257', 'Bitcoin above 500 on October 2, 5PM ET?', BINANCE('BTC/USDT', '17:00', 'higher'), '2026-10-02T21:00:00Z'),
  },
  {
    kind: 'crypto',
    why: 'above $150k on December 31 against reaching $150k by December 31',
    label: 'related',
    a: K(
      'KXBTCY-26DEC31-T149999.99',
      'Bitcoin price on Dec 31, 2026 at 5pm EST? — $150,000 or above',
      BRTI('5 PM EST', 'Dec 31, 2026', '149999.99'),
      '2026-12-31T22:00:00Z',
      { strike: { type: 'greater', floor: 149999.99 } },
    ),
    b: P(
      '3100258',
      'Will Bitcoin reach $150,000 by December 31, 2026?',
      'This market will resolve to "Yes" if any Binance 1 minute candle for BTC/USDT between market creation and December 31, 2026, 11:59 PM ET has a final "High" price of $150,000 or higher. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'weather station',
    why: 'one station: 85-86 against 84-85 (overlapping bins)',
    label: 'related',
    a: K(
      'KXHIGHNY-26SEP14-B85.5',
      'Highest temperature in NYC on Sep 14, 2026? — 85° to 86°',
      KALSHI_HIGH('Central Park, New York', 'September 14, 2026', 'between 85-86°'),
      '2026-09-15T04:59:00Z',
      { strike: { type: 'between', floor: 85, cap: 86 } },
    ),
    b: P(
      '3100259',
      'Will the highest temperature in New York City be between 84-85°F on September 14?',
      PM_HIGH('Central Park', "14 Sep '26"),
      '2026-09-15T12:00:00Z',
    ),
  },
  {
    kind: 'statement',
    why: 'the same words with the names in other roles',
    label: 'related',
    a: K(
      'KXENDORSE-28-TRUMPVANCE',
      'Will Donald Trump endorse JD Vance before 2028?',
      'If Donald Trump endorses JD Vance for the 2028 presidential election before Jan 1, 2028, then the market resolves to Yes.',
      '2028-01-01T05:00:00Z',
    ),
    b: P(
      '3100260',
      'Will JD Vance endorse Donald Trump before 2028?',
      'This market will resolve to "Yes" if JD Vance endorses Donald Trump for the 2028 presidential election by December 31, 2027, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2027-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'statement',
    why: 'a Senate majority against a House majority',
    label: 'related',
    a: K(
      'KXSENATE-26-D',
      'Will Democrats win the Senate in 2026?',
      `If the Democratic Party wins control of the Senate in the 2026 midterm elections, then the market resolves to Yes.\n\n${ELECTION}`,
      '2026-11-03T23:00:00Z',
    ),
    b: P(
      '3100261',
      'Will Democrats win the House in 2026?',
      PM_ELECTION('the Democratic Party', 'control of the House in the 2026 midterm elections'),
      '2026-11-03T23:00:00Z',
    ),
  },
  {
    kind: 'statement',
    why: '$5 trillion against $5 billion',
    label: 'related',
    a: K(
      'KXOPENAIVAL-26',
      'Will OpenAI be valued at $1 trillion or more before 2027?',
      'If OpenAI announces a funding round at a valuation of $1 trillion or more before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100262',
      'OpenAI raises $1 billion or more in 2026?',
      'This market will resolve to "Yes" if OpenAI announces a funding round of $1 billion or more by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'reaching $150k by the end of 2026 on both venues (BRTI against Binance)',
    label: 'same',
    a: K(
      'KXBTCMAXY-26-150000',
      'Will Bitcoin hit $150,000 in 2026?',
      "If the CF Benchmarks' Bitcoin Real-Time Index (BRTI) is above $150,000.00 at any time before Jan 1, 2027, then the market resolves to Yes.",
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100258',
      'Will Bitcoin reach $150,000 by December 31, 2026?',
      'This market will resolve to "Yes" if any Binance 1 minute candle for BTC/USDT between market creation and December 31, 2026, 11:59 PM ET has a final "High" price of $150,000 or higher. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'greater than 84 against 85 or higher at one station (whole degrees)',
    label: 'same',
    a: K(
      'KXHIGHNY-26SEP14-T84',
      'Highest temperature in NYC on Sep 14, 2026? — 85° or above',
      KALSHI_HIGH('Central Park, New York', 'September 14, 2026', 'greater than 84°'),
      '2026-09-15T04:59:00Z',
      { strike: { type: 'greater', floor: 84 } },
    ),
    b: P(
      '3100263',
      'Will the highest temperature in New York City be 85°F or higher on September 14?',
      PM_HIGH('Central Park', "14 Sep '26"),
      '2026-09-15T12:00:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'a football match, YES on one team on both venues (draw: NO on both)',
    label: 'same',
    a: K(
      'KXEPLGAME-26SEP19ARSCHE-ARS',
      'Arsenal vs Chelsea',
      'If Arsenal wins the Arsenal vs Chelsea professional soccer game originally scheduled for Sep 19, 2026, then the market resolves to Yes.\n\nThe following market refers to the team who wins the game in regulation time (90 minutes plus stoppage time). If the game ends in a draw, the market resolves to No.',
      '2026-09-19T16:30:00Z',
      { yesSide: 'Arsenal' },
    ),
    b: P(
      '3100264',
      'Will Arsenal FC win on 2026-09-19?',
      'In the upcoming EPL game, scheduled for September 19, 2026, between Arsenal FC and Chelsea FC:\nThis market will resolve to "Yes" if Arsenal FC wins the game.\nThis market will resolve to "No" if Chelsea FC wins or the game ends in a draw.',
      '2026-09-19T16:30:00Z',
    ),
  },
  {
    kind: 'true same',
    why: "Polymarket's noon on a date against Kalshi's 12pm",
    label: 'same',
    a: K(
      'KXBTCD-26OCT0212-T94999.99',
      'Bitcoin price on Oct 2, 2026 at 12pm EDT? — $95,000 or above',
      BRTI('12 PM EDT', 'Oct 2, 2026', '94999.99'),
      '2026-10-02T16:00:00Z',
      {
        strike: { type: 'greater', floor: 94999.99 },
      },
    ),
    b: P(
      '3100265',
      'Will the price of Bitcoin be above $95,000 on October 2?',
      BINANCE('BTC/USDT', '12:00', 'higher').replace('12:00 in the ET timezone', '12:00 in the ET timezone (noon)'),
      '2026-10-02T16:00:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: 'one statistic against a combination of two (250+ yards and 2+ touchdowns)',
    label: 'related',
    a: K(
      'KXNFLPASSYDS-26SEP20KCDEN-KCPMAHOMES15-250',
      'Patrick Mahomes: 250+ passing yards',
      KALSHI_STAT('Patrick Mahomes', '250+ passing yards', 'Kansas City at Denver Pro Football game', 'Sep 20, 2026'),
      '2026-09-20T23:25:00Z',
    ),
    b: U(
      'astatc-nfl-kc-den-2026-09-20-combo-pmah',
      'Patrick Mahomes · Will Patrick Mahomes record 250+ passing yards and 2+ passing touchdowns?',
      US_STAT(
        'Patrick Mahomes',
        'at least 250 passing yards and at least 2 passing touchdowns',
        'Kansas City Chiefs vs Denver Broncos professional football game',
        'Sep 20, 2026',
      ),
      '2026-10-04T20:25:00Z',
    ),
  },
  {
    kind: 'player prop',
    why: 'points against points and rebounds combined',
    label: 'related',
    a: K(
      'KXNBAPTS-26OCT21OKCHOU-OKCSGILGEOUSALEXANDER2-30',
      'Shai Gilgeous-Alexander: 30+ points',
      'If Shai Gilgeous-Alexander records 30+ points in the Oklahoma City vs Houston professional basketball game originally scheduled for Oct 21, 2026, then the market resolves to Yes.',
      '2026-10-22T02:30:00Z',
    ),
    b: U(
      'astatc-nba-okc-hou-2026-10-21-pr-sgil-gte30',
      'Shai Gilgeous-Alexander · Will Shai Gilgeous-Alexander record 30+ points + rebounds?',
      'This market will settle to Yes if Shai Gilgeous-Alexander records at least 30 points + rebounds in the Oklahoma City Thunder vs Houston Rockets professional basketball game scheduled for Oct 21, 2026. Overtime is included if played.',
      '2026-11-04T00:30:00Z',
    ),
  },
  {
    kind: 'commodity',
    why: "gold's front-month futures settlement against the spot price",
    label: 'related',
    a: K(
      'KXGOLD-26DEC31-T4000',
      'Will gold close at or above $4,000 on Dec 31, 2026?',
      'If the settlement price of the front-month COMEX gold futures contract (GC) on Dec 31, 2026 is at or above $4,000, then the market resolves to Yes.',
      '2026-12-31T22:00:00Z',
    ),
    b: P(
      '3100266',
      'Will gold close above $4,000 on December 31, 2026?',
      'This market will resolve to "Yes" if the spot price of gold (XAU/USD) closes at or above $4,000 per troy ounce on December 31, 2026, according to the LBMA Gold Price PM fixing. Otherwise, this market will resolve to "No".',
      '2026-12-31T22:00:00Z',
    ),
  },
  {
    kind: 'game vs series',
    why: 'a first-round series against its first game, one day',
    label: 'related',
    a: K(
      'KXNBASERIES-27OKCHOUR1-OKC',
      'Oklahoma City vs Houston',
      'If Oklahoma City wins the Oklahoma City vs Houston NBA Western Conference First Round series, then the market resolves to Yes.',
      '2027-05-02T03:00:00Z',
      { yesSide: 'Oklahoma City' },
    ),
    b: U(
      'aec-nba-okc-hou-2027-04-18',
      'Who will win in the upcoming basketball event Thunder vs Rockets scheduled for April 18, 2027 at 7:30 PM UTC? [outcome: Thunder]',
      'This market will settle to the winner of the Thunder vs Rockets NBA game scheduled for Apr 18, 2027. Overtime is included if played. If the game is delayed, postponed, or suspended and not rescheduled to a date within two weeks of the originally scheduled date, the market will settle to the last fair market price.',
      '2027-05-02T19:30:00Z',
    ),
  },
  {
    kind: 'crypto',
    why: "Kalshi's $94,000-95,999.99 range against above $94,000",
    label: 'related',
    a: K(
      'KXBTC-26OCT0217-B95000',
      'Bitcoin price range on Oct 2, 2026 at 5pm EDT? — $94,000 to 95,999.99',
      "If the simple average of the sixty seconds of CF Benchmarks' Bitcoin Real-Time Index (BRTI) before 5 PM EDT on Oct 2, 2026 is between 94000 and 95999.99, then the market resolves to Yes.",
      '2026-10-02T21:00:00Z',
      {
        strike: { type: 'between', floor: 94000, cap: 95999.99 },
      },
    ),
    b: P('3100267', 'Bitcoin above 94,000 on October 2, 5PM ET?', BINANCE('BTC/USDT', '17:00', 'higher'), '2026-10-02T21:00:00Z'),
  },
  {
    kind: 'crypto',
    why: 'one instant and threshold, the next day',
    label: 'related',
    a: K(
      'KXBTCD-26OCT0217-T94999.99',
      'Bitcoin price on Oct 2, 2026 at 5pm EDT? — $95,000 or above',
      BRTI('5 PM EDT', 'Oct 2, 2026', '94999.99'),
      '2026-10-02T21:00:00Z',
      {
        strike: { type: 'greater', floor: 94999.99 },
      },
    ),
    b: P('3100268', 'Bitcoin above 95,000 on October 3, 5PM ET?', BINANCE('BTC/USDT', '17:00', 'higher'), '2026-10-03T21:00:00Z'),
  },
  {
    kind: 'statement',
    why: 'a meeting in person against one in Moscow',
    label: 'related',
    a: K(
      'KXTRUMPMEET-26-VPUT',
      'Will Donald Trump meet Vladimir Putin in person before 2027?',
      'If Donald Trump and Vladimir Putin meet in person before Jan 1, 2027, then the market resolves to Yes.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100269',
      'Will Trump visit Russia in 2026?',
      'This market will resolve to "Yes" if Donald Trump meets in person with Vladimir Putin in Russia by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
  // ---- what the rules define outside the YES sentence -------------------------------------------
  {
    kind: 'definition clause',
    why: 'a meeting where calls count against one where only in-person meetings count, said after the YES sentence',
    label: 'related',
    a: K(
      'KXTRUMPMEET-26-XJIN',
      'Will Donald Trump meet Xi Jinping before 2027?',
      'If Donald Trump and Xi Jinping meet before Jan 1, 2027, then the market resolves to Yes.\n\nA meeting includes phone calls and video calls between the two individuals.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100270',
      'Will Trump meet Xi Jinping in 2026?',
      'This market will resolve to "Yes" if Donald Trump and Xi Jinping meet by December 31, 2026, 11:59 PM ET. Otherwise, this market will resolve to "No". Only in-person meetings will count; phone or video calls will not qualify.',
      '2026-12-31T23:59:00Z',
    ),
  },
  {
    kind: 'definition clause',
    why: 'headline CPI against core CPI, the index named after the YES sentence',
    label: 'related',
    a: K(
      'KXCPI-26SEP-T0.3',
      'Will CPI rise more than 0.3% in Sep 2026?',
      'If CPI rises more than 0.3% in Sep 2026, then the market resolves to Yes.\n\nThe Consumer Price Index for All Urban Consumers (CPI-U), seasonally adjusted, month-over-month, as reported by the Bureau of Labor Statistics.',
      '2026-10-14T12:25:00Z',
    ),
    b: P(
      '3100271',
      'Will inflation rise more than 0.3% in September?',
      'This market will resolve to "Yes" if CPI rises more than 0.3% in Sep 2026. This market refers to core CPI (all items less food and energy), seasonally adjusted, month-over-month, as reported by the Bureau of Labor Statistics.',
      '2026-10-14T12:25:00Z',
    ),
  },
  {
    kind: 'definition clause',
    why: 'month-over-month CPI against year-over-year CPI, the measure named after the YES sentence',
    label: 'related',
    a: K(
      'KXCPI-26SEP-T0.3',
      'Will CPI rise more than 0.3% in Sep 2026?',
      'If CPI rises more than 0.3% in Sep 2026, then the market resolves to Yes.\n\nThe Consumer Price Index for All Urban Consumers (CPI-U), seasonally adjusted, month-over-month, as reported by the Bureau of Labor Statistics.',
      '2026-10-14T12:25:00Z',
    ),
    b: P(
      '3100272',
      'Will inflation rise more than 0.3% in September?',
      'This market will resolve to "Yes" if CPI rises more than 0.3% in Sep 2026. This market refers to the year-over-year change in the Consumer Price Index for All Urban Consumers, not seasonally adjusted, as reported by the Bureau of Labor Statistics.',
      '2026-10-14T12:25:00Z',
    ),
  },
  {
    kind: 'definition clause',
    why: "GDP's advance estimate against its third estimate",
    label: 'related',
    a: K(
      'KXGDP-26Q3-T2.0',
      'GDP growth in Q3 2026? — Above 2.0%',
      "If real GDP increases by more than 2.0% in Q3 2026, then the market resolves to Yes.\n\nThe annualized quarter-over-quarter growth rate in the Bureau of Economic Analysis's advance estimate.",
      '2026-10-29T12:25:00Z',
    ),
    b: P(
      '3100273',
      'US GDP growth in Q3 2026 above 2.0%?',
      'This market will resolve to "Yes" if real GDP increases by more than 2.0% in Q3 2026. The resolution source is the annualized growth rate in the third estimate released by the Bureau of Economic Analysis.',
      '2026-12-22T13:30:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'CPI more than 0.3% on both venues, the same index named after the YES sentence',
    label: 'same',
    a: K(
      'KXCPI-26SEP-T0.3',
      'Will CPI rise more than 0.3% in Sep 2026?',
      'If CPI rises more than 0.3% in Sep 2026, then the market resolves to Yes.\n\nThe Consumer Price Index for All Urban Consumers (CPI-U), seasonally adjusted, month-over-month, as reported by the Bureau of Labor Statistics.',
      '2026-10-14T12:25:00Z',
    ),
    b: P(
      '3100274',
      'Will CPI rise more than 0.3% in September?',
      'This market will resolve to "Yes" if CPI rises more than 0.3% in Sep 2026. The seasonally adjusted month-over-month change in the Consumer Price Index for All Urban Consumers, as reported by the Bureau of Labor Statistics, will be used.',
      '2026-10-14T12:25:00Z',
    ),
  },
  // ---- a winner against a way of winning -------------------------------------------------------
  {
    kind: 'method of victory',
    why: 'a fighter to win against the same fighter to win by KO/TKO',
    label: 'related',
    a: K(
      'KXUFCFIGHT-26SEP12CORBLA-COR',
      'Waldo Cortes-Acosta wins',
      'If Waldo Cortes-Acosta wins the Cortes-Acosta vs Blaydes professional MMA fight originally scheduled for Sep 12, 2026, then the market resolves to Yes.\n\nIf the fight is declared a tie or no contest, the market will resolve to 50/50 for both fighters.',
      '2026-09-13T02:20:00Z',
    ),
    b: P(
      '3100275',
      'Cortes Acosta vs. Blaydes: Will Waldo Cortes Acosta win by KO/TKO?',
      'This market will resolve to "Yes" if Waldo Cortes Acosta wins the Waldo Cortes Acosta vs Curtis Blaydes UFC fight scheduled for September 12, 2026 by KO or TKO. If the fight ends by any other method, in a draw, or is declared a no contest, this market will resolve to "No".',
      '2026-09-13T02:20:00Z',
    ),
  },
  {
    kind: 'method of victory',
    why: 'a tennis match against winning it in straight sets',
    label: 'related',
    a: K(
      'KXATPMATCH-26SEP13SINALC-SIN',
      'Jannik Sinner vs Carlos Alcaraz',
      'If Jannik Sinner wins the Jannik Sinner vs Carlos Alcaraz professional tennis match originally scheduled for Sep 13, 2026, then the market resolves to Yes.',
      '2026-09-13T23:00:00Z',
      { yesSide: 'Jannik Sinner' },
    ),
    b: P(
      '3100276',
      'Sinner vs. Alcaraz: Will Jannik Sinner win in straight sets?',
      'This market will resolve to "Yes" if Jannik Sinner wins the Jannik Sinner vs Carlos Alcaraz match scheduled for September 13, 2026 in straight sets, without dropping a set. Otherwise, this market will resolve to "No".',
      '2026-09-13T23:00:00Z',
    ),
  },
  {
    kind: 'method of victory',
    why: 'a hockey game against winning it in overtime',
    label: 'related',
    a: K(
      'KXNHLGAME-26OCT10NYRBOS-NYR',
      'New York R vs Boston',
      'If New York R wins the New York R vs Boston professional hockey game originally scheduled for Oct 10, 2026, then the market resolves to Yes. Overtime and shootouts are included.',
      '2026-10-10T23:00:00Z',
      { yesSide: 'New York R' },
    ),
    b: P(
      '3100277',
      'Rangers vs. Bruins: Will the New York Rangers win in overtime?',
      'This market will resolve to "Yes" if the New York Rangers win their game against the Boston Bruins scheduled for October 10, 2026 in overtime or a shootout. Otherwise, this market will resolve to "No".',
      '2026-10-10T23:00:00Z',
    ),
  },
  {
    kind: 'fixture',
    why: "Duke vs North Carolina on one day: the women's game against the men's",
    label: 'different',
    a: K(
      'KXNCAAWBGAME-27FEB06DUKEUNC-DUKE',
      'Duke vs North Carolina',
      KALSHI_GAME('Duke', "Duke vs North Carolina women's college basketball game", 'Feb 6, 2027'),
      '2027-02-07T02:00:00Z',
      { yesSide: 'Duke' },
    ),
    b: U(
      'aec-cbb-duke-unc-2027-02-06',
      'Who will win in the upcoming basketball event Blue Devils vs Tar Heels scheduled for February 6, 2027 at 11:00 PM UTC? [outcome: Blue Devils]',
      "This market will settle to the winner of the Blue Devils vs Tar Heels men's college basketball game scheduled for Feb 6, 2027. Overtime is included if played. If the game is delayed, postponed, or suspended and not rescheduled to a date within two weeks of the originally scheduled date, the market will settle to the last fair market price.",
      '2027-02-20T23:00:00Z',
    ),
  },
  // ---- totals and doubleheaders ------------------------------------------------------------------
  {
    kind: 'fixture',
    why: "the game's total points against one team's total, one line",
    label: 'related',
    a: K(
      'KXNFLTOTAL-26SEP20KCDEN-45',
      'Kansas City at Denver: Total Points',
      'If the total points scored by both teams in the Kansas City at Denver professional football game originally scheduled for Sep 20, 2026 is over 45.5, then the market resolves to Yes.',
      '2026-09-20T23:25:00Z',
      { yesSide: 'Over 45.5 points scored' },
    ),
    b: P(
      '3100278',
      'Chiefs vs. Broncos: Chiefs Team Total O/U 45.5',
      'In the upcoming NFL game, scheduled for September 20, 2026, between the Kansas City Chiefs and the Denver Broncos: This market will resolve to "Over" if the Kansas City Chiefs score more than 45.5 points. Otherwise, it will resolve to "Under".',
      '2026-09-20T23:25:00Z',
      { yesSide: 'Over' },
    ),
  },
  {
    kind: 'fixture',
    why: 'one total line against a higher one',
    label: 'related',
    a: K(
      'KXNFLTOTAL-26SEP20KCDEN-45',
      'Kansas City at Denver: Total Points',
      'If the total points scored by both teams in the Kansas City at Denver professional football game originally scheduled for Sep 20, 2026 is over 45.5, then the market resolves to Yes.',
      '2026-09-20T23:25:00Z',
      { yesSide: 'Over 45.5 points scored' },
    ),
    b: P(
      '3100279',
      'Chiefs vs. Broncos: O/U 47.5',
      'In the upcoming NFL game, scheduled for September 20, 2026, between the Kansas City Chiefs and the Denver Broncos: This market will resolve to "Over" if the total points scored by both teams is more than 47.5. Otherwise, it will resolve to "Under".',
      '2026-09-20T23:25:00Z',
      { yesSide: 'Over' },
    ),
  },
  {
    kind: 'date/time',
    why: "a doubleheader's first game (Kalshi's ticker states 1:10 PM) against a market on the day's second game, no start in its text",
    label: 'different',
    a: K(
      'KXMLBGAME-26SEP191310NYMATL-NYM',
      'New York M vs Atlanta',
      KALSHI_GAME('New York M', 'New York M vs Atlanta professional baseball game', 'Sep 19, 2026 at 1:10 PM EDT'),
      '2026-09-19T20:30:00Z',
      { yesSide: 'New York M' },
    ),
    b: P(
      '3100280',
      'New York Mets vs. Atlanta Braves (Game 2)',
      'In the upcoming MLB game, scheduled for September 19, 2026 (game 2 of a doubleheader), between the New York Mets and the Atlanta Braves: This market will resolve to "New York Mets" if the Mets win the game. This market will resolve to "Atlanta Braves" if the Braves win.',
      '2026-09-20T02:30:00Z',
      { yesSide: 'New York Mets' },
    ),
  },
  {
    kind: 'primary vs general',
    why: 'a party to win the seat against its candidate to win it',
    label: 'related',
    a: K(
      'KXSENATEGA-26-D',
      'Which party will win the Senate race in Georgia?',
      `If the Democratic Party wins the 2026 Georgia Senate election, then the market resolves to Yes.\n\n${ELECTION}`,
      '2026-11-03T23:00:00Z',
    ),
    b: P('3100281', 'Georgia Senate Election Winner: Jon Ossoff', PM_ELECTION('Jon Ossoff', 'the 2026 Georgia Senate election'), '2026-11-03T23:00:00Z'),
  },
  {
    kind: 'true same',
    why: 'one game total line, YES on over on both',
    label: 'same',
    a: K(
      'KXNFLTOTAL-26SEP20KCDEN-45',
      'Kansas City at Denver: Total Points',
      'If the total points scored by both teams in the Kansas City at Denver professional football game originally scheduled for Sep 20, 2026 is over 45.5, then the market resolves to Yes.',
      '2026-09-20T23:25:00Z',
      { yesSide: 'Over 45.5 points scored' },
    ),
    b: P(
      '3100282',
      'Chiefs vs. Broncos: O/U 45.5',
      'In the upcoming NFL game, scheduled for September 20, 2026, between the Kansas City Chiefs and the Denver Broncos: This market will resolve to "Over" if the total points scored by both teams is more than 45.5. Otherwise, it will resolve to "Under".',
      '2026-09-20T23:25:00Z',
      { yesSide: 'Over' },
    ),
  },
  {
    kind: 'settlement window',
    why: 'one YES sentence, the deadline stated in a later sentence: Dec 31 against June 30',
    label: 'related',
    a: K(
      'KXZELPUTIN-26',
      'Will Zelenskyy and Putin meet in person?',
      'If Volodymyr Zelenskyy and Vladimir Putin meet in person, then the market resolves to Yes.\n\nIf Volodymyr Zelenskyy and Vladimir Putin have not met in person by Dec 31, 2026, the market resolves to No.',
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100283',
      'Zelenskyy and Putin meet in person?',
      'This market will resolve to "Yes" if Volodymyr Zelenskyy and Vladimir Putin meet in person. If no such meeting occurs by June 30, 2026, 11:59 PM ET, this market will resolve to "No".',
      '2026-06-30T23:59:00Z',
    ),
  },
  {
    kind: 'true same',
    why: 'one YES sentence, the same deadline stated in a later sentence on both venues',
    label: 'same',
    a: K(
      'KXZELPUTIN-26JUN',
      'Will Zelenskyy and Putin meet in person by June 30?',
      'If Volodymyr Zelenskyy and Vladimir Putin meet in person, then the market resolves to Yes.\n\nIf Volodymyr Zelenskyy and Vladimir Putin have not met in person by Jun 30, 2026, the market resolves to No.',
      '2026-07-01T04:00:00Z',
    ),
    b: P(
      '3100283',
      'Zelenskyy and Putin meet in person?',
      'This market will resolve to "Yes" if Volodymyr Zelenskyy and Vladimir Putin meet in person. If no such meeting occurs by June 30, 2026, 11:59 PM ET, this market will resolve to "No".',
      '2026-06-30T23:59:00Z',
    ),
  },
  // ---- a part of the game against the game ------------------------------------------------------
  {
    kind: 'fixture',
    why: 'an NBA game against its first quarter',
    label: 'related',
    a: K(
      'KXNBAGAME-26OCT21OKCHOU-OKC',
      'Oklahoma City vs Houston',
      KALSHI_GAME('Oklahoma City', 'Oklahoma City vs Houston professional basketball game', 'Oct 21, 2026'),
      '2026-10-22T02:30:00Z',
      { yesSide: 'Oklahoma City' },
    ),
    b: U(
      'aec-nba-okc-hou-2026-10-21-1q',
      'Who will win the 1st quarter in the upcoming basketball event Thunder vs Rockets scheduled for October 22, 2026 at 12:00 AM UTC? [outcome: Thunder]',
      'This market will settle to the team that scores more points in the 1st quarter of the Thunder vs Rockets NBA game scheduled for Oct 21, 2026. If the 1st quarter ends in a tie, the market will settle to 50-50.',
      '2026-11-05T00:00:00Z',
    ),
  },
  {
    kind: 'fixture',
    why: 'an MLB game against its first five innings',
    label: 'related',
    a: K(
      'KXMLBGAME-26SEP141905NYYBOS-NYY',
      'New York Y vs Boston',
      KALSHI_GAME('New York Y', 'New York Y vs Boston professional baseball game', 'Sep 14, 2026'),
      '2026-09-15T02:00:00Z',
      { yesSide: 'New York Y' },
    ),
    b: P(
      '3100284',
      'Yankees vs. Red Sox: First 5 Innings Winner',
      'In the upcoming MLB game, scheduled for September 14, 2026, between the New York Yankees and the Boston Red Sox: This market will resolve to "Yankees" if the New York Yankees lead after the first 5 innings. If the score is tied after 5 innings, this market will resolve 50-50.',
      '2026-09-14T23:05:00Z',
      { yesSide: 'Yankees' },
    ),
  },
  {
    kind: 'fixture',
    why: 'an NHL game against its first period',
    label: 'related',
    a: K(
      'KXNHLGAME-26OCT10NYRBOS-NYR',
      'New York R vs Boston',
      'If New York R wins the New York R vs Boston professional hockey game originally scheduled for Oct 10, 2026, then the market resolves to Yes. Overtime and shootouts are included.',
      '2026-10-10T23:00:00Z',
      { yesSide: 'New York R' },
    ),
    b: P(
      '3100285',
      'Rangers vs. Bruins: 1st Period Winner',
      'In the upcoming NHL game, scheduled for October 10, 2026, between the New York Rangers and the Boston Bruins: This market will resolve to "Rangers" if the New York Rangers lead at the end of the 1st period. If the score is tied after the 1st period, this market will resolve 50-50.',
      '2026-10-10T23:00:00Z',
      { yesSide: 'Rangers' },
    ),
  },
  {
    kind: 'inverted',
    why: 'to reach $100,000 in 2026 against to dip to $100,000 in 2026: both can happen, not inverse',
    label: 'related',
    a: K(
      'KXBTCMAXY-26-100000',
      'Will Bitcoin hit $100,000 in 2026?',
      "If the CF Benchmarks' Bitcoin Real-Time Index (BRTI) is above $100,000.00 at any time before Jan 1, 2027, then the market resolves to Yes.",
      '2027-01-01T05:00:00Z',
    ),
    b: K(
      'KXBTCMINY-26-100000',
      'Will Bitcoin fall below $100,000 in 2026?',
      "If the CF Benchmarks' Bitcoin Real-Time Index (BRTI) is below $100,000.00 at any time before Jan 1, 2027, then the market resolves to Yes.",
      '2027-01-01T05:00:00Z',
    ),
  },
  {
    kind: 'inverted',
    why: 'to reach $100,000 by December 31 against to dip to $100,000 by December 31 (Polymarket wording)',
    label: 'related',
    a: K(
      'KXBTCMAXY-26-100000',
      'Will Bitcoin hit $100,000 in 2026?',
      "If the CF Benchmarks' Bitcoin Real-Time Index (BRTI) is above $100,000.00 at any time before Jan 1, 2027, then the market resolves to Yes.",
      '2027-01-01T05:00:00Z',
    ),
    b: P(
      '3100286',
      'Will Bitcoin dip to $100,000 by December 31, 2026?',
      'This market will resolve to "Yes" if any Binance 1 minute candle for BTC/USDT between market creation and December 31, 2026, 11:59 PM ET has a final "Low" price of $100,000 or lower. Otherwise, this market will resolve to "No".',
      '2026-12-31T23:59:00Z',
    ),
  },
];
