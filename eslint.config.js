// The one lint configuration of the repository: neostandard (standard style, flat config), with
// TypeScript support for the two NestJS SUTs, plus a maximum line length of 140 characters enforced
// by the @stylistic plugin that neostandard already includes (URLs exempt), and a function that fits
// a screen in dyno's own code: at most 80 lines, comments and blank lines aside.
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
  },
  {
    files: ['harness/src/**/*.js', 'engines/**/*.js'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipComments: true, skipBlankLines: true }]
    }
  },
  {
    // Modules a count runs: their content is the counting code's hash (counting-code.js), and an edit makes every release of the
    // timeline's dataset counted again and drawn on a line of its own. Their long functions are split with the next change that
    // changes what a count does.
    files: [
      'harness/src/measures/instructions/counts/count-instructions.js',
      'harness/src/subjects/sut-process/start-sut.js',
      'harness/src/subjects/verify/websocket-client.js'
    ],
    rules: { 'max-lines-per-function': 'off' }
  }
]
