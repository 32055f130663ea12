// Module hooks of bench/ab.mjs: a bench module imported with `?ab=<dist file URL>` loads that
// built dist wherever it imports this repository's dist/, and passes the tag on to the bench
// modules it imports, so one process holds two copies of every case, each over its own dist. A
// dist's bare imports (bitecs, rapier) resolve from this repository. An entry the other dist lacks
// (an older build, before dist/internals.js was split off index.js) is taken from its index.js.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
let distUrl = ''
let repoUrl = ''

/** Receives { dist, repo }: this repository's dist/ and root as file URLs ending in '/'. */
export async function initialize(data) {
  distUrl = data.dist
  repoUrl = data.repo
}

const isPath = (s) => s.startsWith('./') || s.startsWith('../') || s.startsWith('/') || s.startsWith('file:')

/** The dist a bench module was imported for (its `ab` tag), or ''. */
const tagOf = (url) => new URL(url).searchParams.get('ab') ?? ''

export async function resolve(specifier, context, next) {
  const parent = context.parentURL
  if (parent && isPath(specifier)) {
    const url = new URL(specifier, parent)
    const tag = tagOf(parent)
    const plain = url.href.split('?')[0]
    if (tag && plain.startsWith(distUrl)) {
      const target = tag + plain.slice(distUrl.length)
      return next(existsSync(fileURLToPath(target)) ? target : tag + 'index.js', context)
    }
    if (tag && plain.startsWith(repoUrl) && !plain.startsWith(tag) && !url.searchParams.has('ab')) {
      return next(`${plain}?ab=${encodeURIComponent(tag)}`, context)
    }
  }
  if (parent && !isPath(specifier) && !specifier.startsWith('node:') && !parent.startsWith(repoUrl)) {
    return next(specifier, { ...context, parentURL: repoUrl + 'package.json' })
  }
  return next(specifier, context)
}
