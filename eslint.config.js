// The one lint configuration of the repository: neostandard (standard style, flat config), with
// TypeScript support for the two NestJS SUTs, plus a maximum line length of 140 characters enforced
// by the @stylistic plugin that neostandard already includes (URLs exempt).
import neostandard from 'neostandard'

export default [
  ...neostandard({
    ts: true,
    ignores: [
      '**/.proof-*/**', '**/node_modules/**', '**/dist/**', 'results/**', '.turbo/**', '**/.venv/**', 'packages/*/build/**',
      // What cargo writes while lint walks the tree.
      '**/target/**', 'engines/*/build/**'
    ]
  }),
  {
    rules: {
      '@stylistic/max-len': ['error', { code: 140, ignoreUrls: true }]
    }
  }
]
