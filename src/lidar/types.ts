/** Types shared by the lidar domain's files. */

/** Per-ray best hits and the yaw samples of each bucket column. */
export interface LidarRaster {
  bestT: Float64Array
  bestE: Int32Array
  /** Column c holds yaw samples colYaw[colStart[c] .. colStart[c+1]). */
  colStart: Int32Array
  colYaw: Int32Array
  /** (candidate, yaw sample) pairs and ray tests the last layout estimate counted. */
  pairs: number
  covered: number
  /**
   * The solved ray ranges, cached until the next layout (a static sensor solves its cones once):
   * candidate i tests rays spanQ[2s] ..= spanQ[2s+1] for s in [spanOf[i], spanOf[i+1]).
   */
  spansValid: boolean
  /** A number no other solve of spans has had (keys the world rays filled for them only). */
  layout: number
  spanOf: Int32Array
  spanQ: Int32Array
  /**
   * Per yaw sample y, the pitch samples rowLo[y] ..= rowHi[y] that some span reaches (empty when
   * lo > hi): no other ray of the row can hit, so the final pass reads only these.
   */
  rowLo: Int32Array
  rowHi: Int32Array
  /** Rays in those row ranges: the most points a scan can give (reserved up front). */
  touched: number
  /**
   * Per yaw sample y, pitch samples soleLo[y] ..= soleHi[y] that only the plane candidate
   * soleCand[y] reaches (−1: none): with nothing else to compare, their hits are worked out in the
   * final pass itself, without a round trip through bestT / bestE. `owner` is build scratch.
   */
  soleCand: Int32Array
  soleLo: Int32Array
  soleHi: Int32Array
  owner: Int32Array
  /** findSolePlaneRunsByMasks' scratch: per row, the rays covered once, twice or more, and by its plane. */
  coverOnce: Int32Array
  coverTwice: Int32Array
  planeBits: Int32Array
}
