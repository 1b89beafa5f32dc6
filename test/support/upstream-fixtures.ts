/**
 * Upstream payloads for connector tests. The full real recordings live in ../shared/fixtures/upstream:
 * tests that need them whole skip, saying why, where it is absent. Trimmed excerpts of them live in
 * test/fixtures/recorded (origin and date in its README) and small hand-made payloads in the same
 * formats in test/fixtures/handmade; both run everywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gated, present, RECORDINGS } from './gates.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED_UPSTREAM = RECORDINGS;
/** Hand-written payloads in the upstreams' formats (invented values, see its README). */
export const OWN_UPSTREAM = path.join(ROOT, 'test/fixtures/handmade');
/** Trimmed excerpts of the real recordings (see its README). */
export const RECORDED_UPSTREAM = path.join(ROOT, 'test/fixtures/recorded');

// Jest's global setup says once, for the whole run, when these are skipped; CI requires them (gates.ts).
export const sharedFixturesPresent = present('recordings');

/** `it` where the shared recordings exist, `it.skip` elsewhere. */
export const withShared: jest.It = gated('recordings');

/** A shared recording, as bytes (e.g. `polymarket/gamma_markets_active_limit100_2026-01-10.json`). */
export const sharedFixture = (relative: string): Buffer => fs.readFileSync(path.join(SHARED_UPSTREAM, relative));

/** One of this repository's own small fixtures. */
export const ownFixture = (relative: string): Buffer => fs.readFileSync(path.join(OWN_UPSTREAM, relative));

/** A trimmed excerpt of a real recording, kept in this repository (e.g. `polymarket/gamma_movers_2026-01-10.json`). */
export const recordedFixture = (relative: string): Buffer => fs.readFileSync(path.join(RECORDED_UPSTREAM, relative));
