// The benchmarks share the tests' check for a reachable PostgreSQL server.
export { pgReachable } from '../test/helpers/pg-reachable.js';
