/** The prediction markets of the offline demo feed, with the parameters their random walk needs. */
import type { PredictionMarketMeta } from '../../../domain/prediction.js';
import { DEMO_SOURCE } from '../catalogue.js';

/** How restless a market is: calm ones rarely move, jumpy ones react to every headline. */
export const VOLATILITY_CLASSES = ['calm', 'normal', 'jumpy'] as const;
export type VolatilityClass = (typeof VOLATILITY_CLASSES)[number];

export interface DemoPredictionMarket {
  /** Short and stable: the market's id and url are built from it. */
  slug: string;
  question: string;
  topic: string;
  /** Probability of YES where the backfill starts. */
  prob: number;
  /** Typical 24-hour volume in USD; the feed wanders around it. */
  volume24h: number;
  volatility: VolatilityClass;
}

const DEMO_PREDICTION_URL = 'https://demo.market-gateway.local/markets/';

type Row = [slug: string, topic: string, prob: number, volume24h: number, volatility: VolatilityClass, question: string];

// Hand-written, resolving late 2026 or in 2027. Volumes span from a niche market (~$500) to a headline one (~$30M).
const ROWS: Row[] = [
  ['us-house-2026-dem', 'politics', 0.68, 28_000_000, 'jumpy', 'Will Democrats win control of the US House in the 2026 midterm elections?'],
  ['us-senate-2026-gop', 'politics', 0.64, 19_000_000, 'jumpy', 'Will Republicans keep control of the US Senate after the 2026 midterm elections?'],
  ['us-shutdown-jan-2027', 'politics', 0.36, 3_400_000, 'jumpy', 'Will the US federal government enter a shutdown before January 31, 2027?'],
  ['scotus-retirement-2027', 'politics', 0.33, 2_100_000, 'normal', 'Will a US Supreme Court justice announce their retirement before July 1, 2027?'],
  ['ca-governor-2026-dem', 'politics', 0.91, 4_200_000, 'calm', "Will a Democrat win California's 2026 governor's race?"],
  ['dem-debate-2027', 'politics', 0.41, 85_000, 'normal', 'Will the first 2028 Democratic presidential primary debate take place before October 1, 2027?'],
  ['uk-new-pm-2027', 'politics', 0.22, 1_400_000, 'normal', 'Will the United Kingdom have a new Prime Minister before July 1, 2027?'],
  ['france-2027-rn', 'politics', 0.47, 6_500_000, 'jumpy', 'Will the Rassemblement National candidate win the 2027 French presidential election?'],
  ['germany-coalition-2027', 'politics', 0.18, 240_000, 'calm', "Will Germany's governing coalition collapse before December 31, 2027?"],
  ['canada-election-2027', 'politics', 0.29, 160_000, 'normal', 'Will Canada hold a federal general election before December 31, 2027?'],
  ['japan-snap-election-2027', 'politics', 0.44, 52_000, 'normal', 'Will Japan hold a snap House of Representatives election before December 31, 2027?'],
  ['us-midterms-date', 'politics', 0.97, 9_000, 'calm', 'Will the US midterm general election be held on November 3, 2026 as scheduled?'],

  ['fed-cut-dec-2026', 'economics', 0.46, 12_500_000, 'jumpy', 'Will the Federal Reserve cut rates at its December 2026 FOMC meeting?'],
  ['fed-funds-below-3-2027', 'economics', 0.38, 2_700_000, 'normal', 'Will the upper bound of the federal funds rate be below 3.00% on June 30, 2027?'],
  ['us-gdp-negative-2027', 'economics', 0.27, 1_800_000, 'normal', 'Will the advance estimate of US real GDP show a contraction in any quarter of 2027?'],
  ['us-cpi-mar-2027-above-3', 'economics', 0.31, 640_000, 'normal', 'Will US year-over-year CPI inflation for March 2027 print above 3.0%?'],
  ['us-unemployment-5pct', 'economics', 0.19, 910_000, 'normal', 'Will the US unemployment rate reach 5.0% or higher in any month before July 2027?'],
  ['ecb-lower-mid-2027', 'economics', 0.42, 380_000, 'normal', 'Will the ECB deposit facility rate be lower on June 30, 2027 than on January 1, 2027?'],
  ['boj-1pct-2027', 'economics', 0.48, 270_000, 'normal', 'Will the Bank of Japan raise its policy rate to 1.0% or higher before July 1, 2027?'],
  ['spx-8000-2027', 'economics', 0.34, 5_300_000, 'jumpy', 'Will the S&P 500 close above 8,000 on any trading day before June 30, 2027?'],
  ['brent-below-50-2027', 'economics', 0.14, 720_000, 'normal', 'Will Brent crude settle below $50 per barrel on any day in 2027?'],
  ['gold-5000-2027', 'economics', 0.37, 1_100_000, 'jumpy', 'Will gold settle above $5,000 per troy ounce on any day before July 1, 2027?'],
  ['us-debt-40t-2026', 'economics', 0.81, 95_000, 'calm', 'Will US total public debt outstanding exceed $40 trillion before December 31, 2026?'],

  ['btc-150k-2026', 'crypto', 0.21, 24_000_000, 'jumpy', 'Will Bitcoin trade above $150,000 on a major exchange before December 31, 2026?'],
  ['btc-below-60k-2027', 'crypto', 0.17, 8_800_000, 'jumpy', 'Will Bitcoin trade below $60,000 on a major exchange before March 31, 2027?'],
  ['btc-above-20k-2026', 'crypto', 0.96, 210_000, 'calm', 'Will Bitcoin close above $20,000 on December 31, 2026?'],
  ['eth-5k-dec31-noon', 'crypto', 0.18, 2_600_000, 'jumpy', 'Will Ethereum be above $5,000 on December 31, 2026 at 12PM ET?'],
  ['eth-10k-2027', 'crypto', 0.12, 3_900_000, 'jumpy', 'Will Ether reach $10,000 before December 31, 2027?'],
  ['eth-flippening-2027', 'crypto', 0.03, 150_000, 'calm', "Will Ethereum's market cap exceed Bitcoin's at any point in 2027?"],
  ['sol-etf-10b', 'crypto', 0.24, 310_000, 'normal', 'Will US spot Solana ETFs hold more than $10B in combined assets by June 30, 2027?'],
  ['usdc-100b-2027', 'crypto', 0.45, 68_000, 'normal', "Will USDC's circulating supply exceed $100B before December 31, 2027?"],
  ['us-market-structure-law', 'crypto', 0.39, 1_600_000, 'normal', 'Will a US crypto market-structure bill be signed into law before December 31, 2026?'],
  [
    'us-btc-reserve-buy',
    'crypto',
    0.16,
    2_200_000,
    'normal',
    'Will the US government announce a purchase of Bitcoin for its strategic reserve before July 1, 2027?',
  ],
  ['tether-big4-audit', 'crypto', 0.11, 45_000, 'calm', 'Will Tether publish a full financial audit by a Big Four firm before December 31, 2027?'],
  ['doge-1-2027', 'crypto', 0.07, 820_000, 'jumpy', 'Will Dogecoin trade above $1.00 before December 31, 2027?'],

  ['sb-lxi-chiefs', 'sports', 0.09, 14_000_000, 'jumpy', 'Will the Kansas City Chiefs win Super Bowl LXI?'],
  ['sb-lxi-eagles', 'sports', 0.11, 9_600_000, 'jumpy', 'Will the Philadelphia Eagles win Super Bowl LXI?'],
  ['nba-xmas-bos-okc', 'sports', 0.42, 1_300_000, 'normal', 'Boston Celtics vs. Oklahoma City Thunder'],
  ['nba-2027-thunder', 'sports', 0.27, 7_200_000, 'normal', 'Will the Oklahoma City Thunder win the 2027 NBA Finals?'],
  ['ucl-2027-real-madrid', 'sports', 0.14, 3_100_000, 'normal', 'Will Real Madrid win the 2026-27 UEFA Champions League?'],
  ['epl-2027-arsenal', 'sports', 0.31, 4_400_000, 'normal', 'Will Arsenal win the 2026-27 Premier League?'],
  ['ws-2026-dodgers', 'sports', 0.21, 5_800_000, 'jumpy', 'Will the Los Angeles Dodgers win the 2026 World Series?'],
  ['f1-2026-mclaren', 'sports', 0.35, 880_000, 'normal', "Will McLaren win the 2026 Formula 1 constructors' championship?"],
  ['wimbledon-2027-alcaraz', 'sports', 0.36, 760_000, 'normal', "Will Carlos Alcaraz win the 2027 Wimbledon men's singles title?"],
  ['masters-2027-scheffler', 'sports', 0.2, 1_900_000, 'normal', 'Will Scottie Scheffler win the 2027 Masters Tournament?'],
  ['stanley-cup-2027-canada', 'sports', 0.26, 410_000, 'normal', 'Will a Canadian team win the 2027 Stanley Cup?'],
  ['tdf-2027-pogacar', 'sports', 0.58, 230_000, 'calm', 'Will Tadej Pogačar win the 2027 Tour de France?'],

  ['openai-ipo-2027', 'tech', 0.29, 2_400_000, 'normal', 'Will OpenAI publicly file for an IPO before December 31, 2027?'],
  ['gpt6-mid-2027', 'tech', 0.41, 3_300_000, 'jumpy', 'Will OpenAI release a model named GPT-6 before July 1, 2027?'],
  ['apple-foldable-2026', 'tech', 0.52, 940_000, 'normal', 'Will Apple announce a foldable iPhone before December 31, 2026?'],
  ['nvda-6t-2027', 'tech', 0.43, 2_900_000, 'jumpy', "Will Nvidia's market cap close above $6 trillion on any day before June 30, 2027?"],
  [
    'tesla-robotaxi-5-metros',
    'tech',
    0.14,
    1_700_000,
    'normal',
    'Will Tesla run a paid robotaxi service with no safety monitor in 5+ US metro areas before December 31, 2026?',
  ],
  ['waymo-nyc-2027', 'tech', 0.34, 120_000, 'normal', 'Will Waymo open public driverless rides in New York City before December 31, 2027?'],
  ['spacex-ipo-2027', 'tech', 0.23, 1_050_000, 'normal', 'Will SpaceX or Starlink complete an IPO before December 31, 2027?'],
  ['apple-ceo-2026', 'tech', 0.24, 1_250_000, 'normal', 'Will Tim Cook step down as CEO of Apple before December 31, 2026?'],
  ['frontiermath-80-2027', 'tech', 0.33, 58_000, 'normal', 'Will an AI system score above 80% on FrontierMath tiers 1-3 before July 1, 2027?'],
  ['eu-dma-fine-2b', 'tech', 0.27, 34_000, 'calm', 'Will the EU fine a single company more than €2B under the Digital Markets Act before July 1, 2027?'],

  ['starship-prop-transfer', 'science', 0.36, 540_000, 'normal', 'Will SpaceX demonstrate ship-to-ship propellant transfer in orbit before December 31, 2026?'],
  ['artemis-2-2026', 'science', 0.78, 690_000, 'normal', "Will NASA's crewed Artemis II lunar flyby launch before December 31, 2026?"],
  ['artemis-3-landing-2027', 'science', 0.05, 460_000, 'calm', 'Will Artemis III land astronauts on the Moon before December 31, 2027?'],
  ['blue-moon-landing-2026', 'science', 0.28, 240_000, 'normal', "Will Blue Origin's Blue Moon MK1 lander touch down on the Moon before December 31, 2026?"],
  ['mengzhou-test-2026', 'science', 0.61, 4_600, 'calm', 'Will China fly its Mengzhou crew capsule on an uncrewed orbital test before December 31, 2026?'],
  ['fusion-gain-5', 'science', 0.15, 21_000, 'calm', 'Will a fusion experiment report a target gain above 5 before December 31, 2027?'],
  [
    'rt-superconductor-2027',
    'science',
    0.03,
    260_000,
    'calm',
    'Will an independent lab replicate a room-temperature, ambient-pressure superconductor before 2028?',
  ],
  ['h5n1-pheic-2027', 'science', 0.06, 180_000, 'normal', 'Will the WHO declare H5N1 a Public Health Emergency of International Concern before July 1, 2027?'],
  ['crispr-second-fda', 'science', 0.57, 7_800, 'calm', 'Will the FDA approve a second CRISPR-based therapy before December 31, 2027?'],
  ['k2-18b-biosignature', 'science', 0.04, 31_000, 'calm', 'Will a peer-reviewed paper report a 5-sigma biosignature detection on K2-18b before 2028?'],
  ['us-measles-elimination', 'science', 0.55, 88_000, 'normal', 'Will the United States lose its measles elimination status before December 31, 2026?'],
  ['voynich-deciphered', 'science', 0.03, 520, 'calm', 'Will a decipherment of the Voynich manuscript be accepted in a peer-reviewed journal before 2028?'],

  ['hottest-year-2026', 'climate', 0.27, 310_000, 'normal', 'Will 2026 be the hottest year on record according to NASA GISTEMP?'],
  ['copernicus-2026-1p5', 'climate', 0.38, 54_000, 'normal', 'Will Copernicus report 2026 global mean temperature at least 1.5°C above pre-industrial?'],
  ['atlantic-2026-8-hurricanes', 'climate', 0.44, 170_000, 'normal', 'Will the 2026 Atlantic hurricane season produce 8 or more hurricanes?'],
  ['us-cat5-landfall-2026', 'climate', 0.09, 95_000, 'jumpy', 'Will a Category 5 hurricane make landfall in the United States in 2026?'],
  ['arctic-ice-record-2027', 'climate', 0.16, 12_000, 'calm', 'Will Arctic sea ice extent reach a record low in September 2027?'],
  ['nyc-snow-20in-2027', 'climate', 0.47, 6_200, 'normal', 'Will Central Park record 20 or more inches of snow in the 2026-27 winter?'],
  ['el-nino-mar-2027', 'climate', 0.34, 39_000, 'normal', 'Will NOAA declare El Niño conditions before March 1, 2027?'],
  ['mauna-loa-436-may-2027', 'climate', 0.55, 2_800, 'calm', 'Will the Mauna Loa monthly mean CO2 for May 2027 exceed 436 ppm?'],
  ['cop31-fossil-roadmap', 'climate', 0.21, 18_000, 'calm', 'Will COP31 end with an agreed roadmap for transitioning away from fossil fuels?'],
  ['heathrow-35c-2027', 'climate', 0.29, 3_900, 'normal', 'Will London Heathrow record 35°C or higher in summer 2027?'],
  ['ca-wildfire-1m-acres-2027', 'climate', 0.31, 7_100, 'calm', 'Will California wildfires burn more than 1 million acres in 2027?'],

  ['gta6-on-time', 'entertainment', 0.72, 6_100_000, 'jumpy', 'Will Grand Theft Auto VI release on November 19, 2026 as announced?'],
  ['half-life-3-2026', 'entertainment', 0.26, 2_300_000, 'jumpy', 'Will Valve officially announce Half-Life 3 before December 31, 2026?'],
  ['avengers-doomsday-1p5b', 'entertainment', 0.49, 1_150_000, 'jumpy', 'Will Avengers: Doomsday gross more than $1.5B worldwide in its theatrical run?'],
  ['odyssey-1b', 'entertainment', 0.22, 520_000, 'normal', "Will Christopher Nolan's The Odyssey gross more than $1B worldwide by December 31, 2026?"],
  ['oscars-2027-streamer', 'entertainment', 0.18, 420_000, 'normal', 'Will a streaming-original film win Best Picture at the 2027 Academy Awards?'],
  ['grammys-2027-debut-aoty', 'entertainment', 0.12, 87_000, 'normal', 'Will a debut album win Album of the Year at the 2027 Grammy Awards?'],
  ['swift-tour-2027', 'entertainment', 0.37, 630_000, 'normal', 'Will Taylor Swift announce a new stadium tour before July 1, 2027?'],
  ['spotify-2026-bad-bunny', 'entertainment', 0.33, 270_000, 'normal', "Will Bad Bunny be Spotify's most-streamed artist globally of 2026?"],
  ['eurovision-2027-sweden', 'entertainment', 0.13, 140_000, 'normal', 'Will Sweden win the Eurovision Song Contest 2027?'],
  ['switch2-30m-fy27', 'entertainment', 0.58, 48_000, 'calm', 'Will Nintendo report more than 30 million Switch 2 units sold by March 31, 2027?'],
  ['mrbeast-500m', 'entertainment', 0.62, 76_000, 'calm', "Will MrBeast's main YouTube channel pass 500 million subscribers before 2028?"],

  ['ru-ua-ceasefire-2026', 'geopolitics', 0.31, 26_000_000, 'jumpy', 'Will Russia and Ukraine agree to a ceasefire before December 31, 2026?'],
  ['ru-ua-peace-deal-2027', 'geopolitics', 0.19, 8_400_000, 'jumpy', 'Will Russia and Ukraine sign a peace agreement before July 1, 2027?'],
  ['us-iran-deal-2026', 'geopolitics', 0.14, 4_900_000, 'jumpy', 'Will the US and Iran announce a new nuclear agreement before December 31, 2026?'],
  ['taiwan-blockade-2027', 'geopolitics', 0.06, 3_700_000, 'normal', 'Will China impose a naval blockade on Taiwan before December 31, 2027?'],
  [
    'israel-saudi-ties-2027',
    'geopolitics',
    0.16,
    1_350_000,
    'normal',
    'Will Israel and Saudi Arabia establish formal diplomatic relations before December 31, 2027?',
  ],
  ['xi-us-visit-2026', 'geopolitics', 0.42, 970_000, 'normal', 'Will Xi Jinping visit the United States before December 31, 2026?'],
  ['dprk-nuclear-test-2027', 'geopolitics', 0.12, 560_000, 'normal', 'Will North Korea conduct a nuclear test before December 31, 2027?'],
  [
    'hormuz-closure-2027',
    'geopolitics',
    0.04,
    690_000,
    'normal',
    'Will the Strait of Hormuz be closed to commercial shipping for 24 hours or more before 2028?',
  ],
  ['nato-new-member-2027', 'geopolitics', 0.05, 41_000, 'calm', 'Will NATO admit a new member state before December 31, 2027?'],
  [
    'unsc-sudan-2027',
    'geopolitics',
    0.18,
    11_000,
    'calm',
    'Will the UN Security Council adopt a resolution demanding a ceasefire in Sudan before July 1, 2027?',
  ],
];

export const DEMO_PREDICTION_MARKETS: readonly DemoPredictionMarket[] = ROWS.map(([slug, topic, prob, volume24h, volatility, question]) => ({
  slug,
  question,
  topic,
  prob,
  volume24h,
  volatility,
}));

export const demoPredictionId = (slug: string): string => `${DEMO_SOURCE}:${slug}`;

/** The catalogue as the feed declares it to the store. */
export function demoPredictionMetas(): PredictionMarketMeta[] {
  return DEMO_PREDICTION_MARKETS.map((m) => ({
    id: demoPredictionId(m.slug),
    source: DEMO_SOURCE,
    question: m.question,
    url: `${DEMO_PREDICTION_URL}${m.slug}`,
    topic: m.topic,
  }));
}
