// The scripts run on the developer's machine like the tests: the tests' relaxed rules (test/eslint.config.mjs).
export { default } from '../test/eslint.config.mjs';
