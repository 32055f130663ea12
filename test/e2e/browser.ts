/**
 * What the browser tests share: Debian's chromium driven by playwright-core, found or not (skipped
 * with a notice, unless PITLANE_E2E=required), and launched with the flags the team's machines need.
 */
import { existsSync } from 'node:fs'
import type { BrowserContext } from 'playwright-core'

/** Debian's chromium (apt-get install chromium); never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium'
/** Whether chromium is installed here. */
export const haveBrowser = existsSync(CHROMIUM)
/** PITLANE_E2E=required: a missing browser fails the test instead of skipping it (CI sets it). */
export const required = process.env.PITLANE_E2E === 'required'

/** Whether the browser test of `what` runs here; prints why when it is skipped. */
export function browserTestRuns(what: string): boolean {
  if (!haveBrowser && !required) console.warn(`[e2e] ${CHROMIUM} not found: skipping the browser test of ${what} (set PITLANE_E2E=required to fail instead)`)
  return haveBrowser || required
}

/** Starts headless chromium with its profile in `profile` (a 1280×720 viewport unless given; `args` after the usual flags). */
export async function launchChromium(profile: string, options: { args?: readonly string[]; viewport?: { width: number; height: number } } = {}): Promise<BrowserContext> {
  if (!haveBrowser) throw new Error(`PITLANE_E2E=required but ${CHROMIUM} is missing (apt-get install chromium)`)
  const { chromium } = await import('playwright-core')
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: options.viewport ?? { width: 1280, height: 720 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...(options.args ?? [])],
  })
}
