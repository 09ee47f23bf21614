// Relaxed lint for tests, benchmarks and scripts: they run on the developer's machine, so Node
// built-ins, timers and console output are fine. `n8n-node lint` applies it to test/ (package.json
// sets ESLint's unstable_config_lookup_from_file flag), the scanner's rules run in gulpfile.js.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-require-imports': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
		},
	},
);
