// Module hooks of bench/ab.mjs's child: imports of this repository's dist/ load another built dist
// instead, and that dist's own bare imports (bitecs, rapier) resolve from this repository. An entry
// the other dist lacks (an older build, before dist/internals.js was split off index.js) is taken
// from its index.js.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
let fromUrl = ''
let toUrl = ''
let repoUrl = ''

/** Receives { from, to, repo } (file URLs ending in '/'). */
export async function initialize(data) {
  fromUrl = data.from
  toUrl = data.to
  repoUrl = data.repo
}

const isPath = (s) => s.startsWith('./') || s.startsWith('../') || s.startsWith('/') || s.startsWith('file:')

export async function resolve(specifier, context, next) {
  if (context.parentURL && isPath(specifier)) {
    const url = new URL(specifier, context.parentURL).href
    if (url.startsWith(fromUrl)) {
      const target = toUrl + url.slice(fromUrl.length)
      return next(existsSync(fileURLToPath(target)) ? target : toUrl + 'index.js', context)
    }
  }
  if (context.parentURL?.startsWith(toUrl) && !isPath(specifier) && !specifier.startsWith('node:')) {
    return next(specifier, { ...context, parentURL: repoUrl + 'package.json' })
  }
  return next(specifier, context)
}
