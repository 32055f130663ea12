// `npm run docs`: the API reference from the doc comments, into docs/api/ (not committed).
// TypeDoc 0.28 needs TypeScript ≤ 5.9, so it lives in docs/typedoc/ with its own dependencies,
// installed here on first use; the project's own TypeScript stays 7.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const tool = join(root, 'docs/typedoc')
const typedoc = join(tool, 'node_modules/typedoc/bin/typedoc')
if (!existsSync(typedoc)) {
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: tool, stdio: 'inherit' })
}
execFileSync(process.execPath, [typedoc, '--options', join(tool, 'typedoc.json'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
