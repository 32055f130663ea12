/** Test helpers for placing cars on a closed path. */

/** Slot `i` of `count` spread evenly along closed path `path` (flat [x0, y0, …]): its point and the heading to the next point. */
export function slotOnPath(path: ArrayLike<number>, i: number, count: number): { x: number; y: number; heading: number } {
  const n = path.length / 2
  const k = Math.floor((i * n) / count)
  const x = path[2 * k], y = path[2 * k + 1]
  const nx = path[(2 * k + 2) % path.length], ny = path[(2 * k + 3) % path.length]
  return { x, y, heading: Math.atan2(ny - y, nx - x) }
}
