/**
 * Setup file of the `distributed` Jest project (jest.config.js): the contract suites again with
 * the service on PostgreSQL (a fresh schema each) and Redis; service.ts fails naming whichever is
 * missing rather than run them on SQLite again.
 */
process.env.MGW_TEST_STACK = 'distributed';
