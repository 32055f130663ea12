// Property tests are reproducible: a fixed fast-check seed in `npm test` (CI must not flake);
// PITLANE_FC_SEED=<n> explores another part of the input space, PITLANE_FC_SEED=random a fresh one.
import fc from 'fast-check'

const env = process.env.PITLANE_FC_SEED
if (env !== 'random') fc.configureGlobal({ seed: env ? Number(env) : 20261201 })
