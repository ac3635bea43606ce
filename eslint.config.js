// The one lint configuration of the repository: neostandard (standard style, flat config), with
// TypeScript support for the two NestJS SUTs.
import neostandard from 'neostandard'

export default neostandard({
  ts: true,
  ignores: ['**/node_modules/**', '**/dist/**', 'results/**', '.turbo/**', '**/.venv/**', 'packages/*/build/**']
})
