// The wasm driver kernel's host side: one linear memory laid out as drive-cars.as.ts reads it,
// filled from a pitlane sim's stores and path records, and the kernel's call. A prototype for the
// go/no-go measurement (bench.mjs), not a pitlane module.
import { readdirSync, readFileSync } from 'node:fs'

const DRIVER_STRIDE = 11, SEG_STRIDE = 8
const PATH_BYTES = 64
/** The Car fields in the kernel's SoA order (the first 9 are its inputs, the last 3 its outputs). */
export const CAR_FIELDS = ['x', 'y', 'heading', 'speed', 'vx', 'vy', 'yawRate', 'wheelbase', 'maxSteer', 'steer', 'throttle', 'brake']

/** The compiled kernel modules by variant (out/drive-cars.VARIANT.wasm; '' = drive-cars.wasm), with their sizes in bytes. */
export const kernels = {}
for (const file of readdirSync(new URL('./out/', import.meta.url)).filter((f) => /^drive-cars.*\.wasm$/.test(f)).sort()) {
  const bytes = readFileSync(new URL(`./out/${file}`, import.meta.url))
  kernels[file.slice('drive-cars.'.length, -'.wasm'.length)] = { module: new WebAssembly.Module(bytes), bytes: bytes.length }
}
if (!kernels['']) throw new Error('out/drive-cars.wasm: run build.sh')

const align64 = (n) => (n + 63) & ~63

/** The capacity the fixed-address kernel variant (gen-variants.mjs) is compiled for. */
export const FIXED_CAP = 4096

/** Byte addresses of the Car SoA, Driver records, path index and driven ids for capacity `cap`. */
export function layout(cap) {
  const carBase = 64, drvBase = align64(carBase + 12 * cap * 8), pathOf = align64(drvBase + cap * DRIVER_STRIDE * 8)
  const carsBase = align64(pathOf + cap * 4)
  return { carBase, drvBase, pathOf, carsBase, pathTab: align64(carsBase + cap * 4) }
}

/**
 * A wasm copy of a sim's driver inputs: Car SoA (12 × cap f64), Driver records, per-entity path
 * index, a path table and the paths' packed segments, and the driven cars' ids. `cap` = the Car
 * store's length; `paths` = sim.internal.drivers.paths (DriverPath by entity id).
 */
export class WasmDriver {
  constructor(cap, paths, variant = '') {
    const unique = [...new Set(paths.filter((p) => p !== undefined))]
    if (variant.startsWith('fixed')) { if (cap > FIXED_CAP) throw new RangeError(`the fixed kernel takes ${FIXED_CAP} entities`); cap = FIXED_CAP }
    this.cap = cap
    this.pathIndex = new Map(unique.map((p, i) => [p, i]))
    Object.assign(this, layout(cap))
    let at = this.pathTab + unique.length * PATH_BYTES
    this.scratch = at = align64(at); at += Math.max(cap * 96, 13 * 8 * 4096) // (the split and simd kernels' jobs: simd's 12 f64 and an i32 a job, room for 4096)
    const packedAt = unique.map((p) => { const a = at; at = align64(at + p.packed.length * 8); return a })
    this.memory = new WebAssembly.Memory({ initial: Math.ceil(at / 65536) })
    this.instance = new WebAssembly.Instance(kernels[variant].module, { env: { memory: this.memory }, Math: { sin: Math.sin, cos: Math.cos, hypot: Math.hypot } })
    this.kernel = this.instance.exports.driveCars
    const buf = this.memory.buffer
    this.f64 = new Float64Array(buf)
    this.i32 = new Int32Array(buf)
    this.u32 = new Uint32Array(buf)
    unique.forEach((p, i) => {
      const r = this.pathTab + i * PATH_BYTES
      this.u32[r >> 2] = packedAt[i]
      this.i32[(r >> 2) + 1] = p.segments
      this.i32[(r >> 2) + 2] = p.closed ? 1 : 0
      const f = r >> 3
      this.f64[f + 2] = p.length; this.f64[f + 3] = p.narrowGap; this.f64[f + 4] = p.turnTan2
      this.f64[f + 5] = p.lookahead; this.f64[f + 6] = p.endX; this.f64[f + 7] = p.endY
      if (p.packed.length !== p.segments * SEG_STRIDE) throw new Error('packed length')
      this.f64.set(p.packed, packedAt[i] >> 3)
    })
    this.pathOf32 = this.pathOf >> 2
    for (let e = 0; e < cap; e++) this.i32[this.pathOf32 + e] = paths[e] === undefined ? -1 : this.pathIndex.get(paths[e])
    this.count = 0
  }

  /** Copies every Car field, the Driver records and the driven ids `cars` into the memory. */
  load(Car, state, cars) {
    const cap = this.cap, n = Math.min(cap, Car.x.length)
    CAR_FIELDS.forEach((name, k) => this.f64.set(Car[name].subarray(0, n), (this.carBase >> 3) + k * cap))
    this.f64.set(state.subarray(0, n * DRIVER_STRIDE), this.drvBase >> 3)
    for (let i = 0; i < cars.length; i++) this.i32[(this.carsBase >> 2) + i] = cars[i]
    this.count = cars.length
  }

  /** Runs the kernel over the loaded cars for a host step of `dt` s. */
  run(dt) {
    this.kernel(this.carsBase, this.count, dt, this.cap, this.carBase, this.drvBase, this.pathOf, this.pathTab, this.scratch)
  }

  /** Car field `name` of entity `eid` in the memory. */
  car(name, eid) { return this.f64[(this.carBase >> 3) + CAR_FIELDS.indexOf(name) * this.cap + eid] }

  /** Driver record field `k` of entity `eid` in the memory. */
  driver(eid, k) { return this.f64[(this.drvBase >> 3) + eid * DRIVER_STRIDE + k] }
}
