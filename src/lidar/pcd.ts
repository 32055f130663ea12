/**
 * toPcd: a lidar scan as a PCD v0.7 point-cloud file (the Point Cloud Library's format, read by
 * PCL, Open3D and three.js's PCDLoader), ASCII or binary, one unorganised row of `count` points
 * in the sensor frame: x y z and the requested attributes.
 */
import { describe, optionsObject } from '../validate'
import { assertLidarScan, refuseUnknownKeys, type LidarScan } from './scan'

/** A point attribute toPcd can write, and the PCD fields it becomes. */
export type PcdField = 'intensity' | 'normal' | 'cosine' | 'object' | 'localId' | 'collider' | 'label' | 'range' | 'ray' | 'time'

/** Options of toPcd. */
export interface PcdOptions {
  /** Binary data (little-endian, as PCL writes it) instead of ASCII; default false. */
  binary?: boolean
  /**
   * Attributes after x y z, in this order (default: every attribute the scan carries, in the order
   * of PcdField). 'normal' writes normal_x normal_y normal_z; 'label' is the hit object id under
   * the name PCL and three.js read as a label.
   */
  fields?: readonly PcdField[]
}

interface Column { names: string[]; type: 'F' | 'I'; size: 4 | 8; read(scan: LidarScan, i: number, k: number): number }

const COLUMNS: Record<PcdField, Column> = {
  intensity: { names: ['intensity'], type: 'F', size: 4, read: (s, i) => s.intensities![i] },
  normal: { names: ['normal_x', 'normal_y', 'normal_z'], type: 'F', size: 4, read: (s, i, k) => s.normals![3 * i + k] },
  cosine: { names: ['cosine'], type: 'F', size: 4, read: (s, i) => s.cosines![i] },
  object: { names: ['object'], type: 'I', size: 4, read: (s, i) => s.objects![i] },
  localId: { names: ['local_id'], type: 'I', size: 4, read: (s, i) => s.localIds![i] },
  collider: { names: ['collider'], type: 'I', size: 4, read: (s, i) => s.colliders![i] },
  label: { names: ['label'], type: 'I', size: 4, read: (s, i) => s.objects![i] },
  range: { names: ['range'], type: 'F', size: 4, read: (s, i) => s.distances[i] },
  ray: { names: ['ray'], type: 'I', size: 4, read: (s, i) => s.rays[i] },
  time: { names: ['time'], type: 'F', size: 8, read: (s, i) => s.times![i] },
}
const FIELDS = Object.keys(COLUMNS) as PcdField[]
const XYZ: Column = { names: ['x', 'y', 'z'], type: 'F', size: 4, read: (s, i, k) => s.points[3 * i + k] }

/** True when the scan carries what field `f` reads. */
function carries(scan: LidarScan, f: PcdField): boolean {
  switch (f) {
    case 'intensity': return scan.intensities !== null
    case 'normal': case 'cosine': return scan.normals !== null
    case 'object': case 'localId': case 'label': return scan.objects !== null
    case 'collider': return scan.colliders !== null
    case 'time': return scan.times !== null
    default: return true
  }
}

function fieldList(scan: LidarScan, fields: unknown): PcdField[] {
  if (fields === undefined) return FIELDS.filter((f) => f !== 'label' && f !== 'range' && f !== 'ray' && f !== 'cosine' && carries(scan, f))
  if (!Array.isArray(fields)) throw new TypeError(`options.fields must be an array of field names, got ${describe(fields)}`)
  const out: PcdField[] = []
  for (const f of fields) {
    if (!FIELDS.includes(f)) throw new RangeError(`options.fields: unknown field ${describe(f)} (accepted: ${FIELDS.join(', ')})`)
    if (!carries(scan, f)) throw new RangeError(`options.fields: the scan has no '${f}' (make it with createLidarScan({ hits, normals, intensity }))`)
    if (out.includes(f)) throw new RangeError(`options.fields: '${f}' is listed twice`)
    out.push(f)
  }
  return out
}

/** Writes `scan`'s first `count` points as a PCD v0.7 file; see PcdOptions. */
export function toPcd(scan: LidarScan, options?: PcdOptions): Uint8Array {
  assertLidarScan(scan, 'scan')
  const o = optionsObject<PcdOptions>(options, 'options')
  refuseUnknownKeys(o, ['binary', 'fields'], 'options')
  if (o.binary !== undefined && typeof o.binary !== 'boolean') throw new TypeError(`options.binary must be a boolean, got ${describe(o.binary)}`)
  const columns = [XYZ, ...fieldList(scan, o.fields).map((f) => COLUMNS[f])]
  const names: string[] = [], sizes: number[] = [], types: string[] = []
  for (const c of columns) for (const n of c.names) { names.push(n); sizes.push(c.size); types.push(c.type) }
  const n = scan.count, binary = o.binary === true
  const header = [
    '# .PCD v0.7 - Point Cloud Data file format', 'VERSION 0.7', `FIELDS ${names.join(' ')}`, `SIZE ${sizes.join(' ')}`,
    `TYPE ${types.join(' ')}`, `COUNT ${names.map(() => 1).join(' ')}`, `WIDTH ${n}`, 'HEIGHT 1', 'VIEWPOINT 0 0 0 1 0 0 0',
    `POINTS ${n}`, `DATA ${binary ? 'binary' : 'ascii'}`, '',
  ].join('\n')
  const head = new TextEncoder().encode(header)
  if (binary) {
    const stride = sizes.reduce((a, b) => a + b, 0)
    const out = new Uint8Array(head.length + n * stride)
    out.set(head)
    const view = new DataView(out.buffer)
    let at = head.length
    for (let i = 0; i < n; i++) {
      for (const c of columns) {
        for (let k = 0; k < c.names.length; k++) {
          const v = c.read(scan, i, k)
          if (c.type === 'I') view.setInt32(at, v, true)
          else if (c.size === 4) view.setFloat32(at, v, true)
          else view.setFloat64(at, v, true)
          at += c.size
        }
      }
    }
    return out
  }
  const lines: string[] = []
  for (let i = 0; i < n; i++) {
    const row: string[] = []
    for (const c of columns) {
      for (let k = 0; k < c.names.length; k++) {
        const v = c.read(scan, i, k)
        // floats as the float32 they would be in binary (shortest round-trip text), time in full
        row.push(c.type === 'I' ? String(v) : String(c.size === 4 ? Math.fround(v) : v))
      }
    }
    lines.push(row.join(' '))
  }
  const body = new TextEncoder().encode(lines.length ? lines.join('\n') + '\n' : '')
  const out = new Uint8Array(head.length + body.length)
  out.set(head)
  out.set(body, head.length)
  return out
}
