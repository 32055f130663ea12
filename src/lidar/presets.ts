/** Ready-made lidar patterns and ranges modelled on common sensors, for sim.addLidar. */

/** A scan pattern: yaw(y) = yawStart + y·yawIncrement, pitch(p) = pitchStart + p·pitchIncrement (rad). */
export interface LidarPattern {
  yawStart: number
  yawIncrement: number
  yawCount: number
  pitchStart: number
  pitchIncrement: number
  pitchCount: number
}

/** A preset: a pattern with the sensor's usual range window (m) and rotation rate (Hz). */
export interface LidarPreset {
  readonly pattern: Readonly<LidarPattern>
  readonly rangeMin: number
  readonly rangeMax: number
  readonly hz: number
}

const DEG = Math.PI / 180

function preset(pattern: LidarPattern, rangeMin: number, rangeMax: number, hz: number): LidarPreset {
  return Object.freeze({ pattern: Object.freeze(pattern), rangeMin, rangeMax, hz })
}

/** Built-in presets; spread one into addLidar: `sim.addLidar({ ...lidarPresets.spinning16, mount: car })`. */
export const lidarPresets = Object.freeze({
  /** 16-channel spinning lidar (VLP-16-like): ±15° in 2° steps, 1024 columns per turn, 100 m, 10 Hz. */
  spinning16: preset({ yawStart: 0, yawIncrement: (2 * Math.PI) / 1024, yawCount: 1024, pitchStart: -15 * DEG, pitchIncrement: 2 * DEG, pitchCount: 16 }, 0.5, 100, 10),
  /** 64-channel spinning lidar (HDL-64-like): +2° down to −24.8°, 2048 columns per turn, 120 m, 10 Hz. */
  spinning64: preset({ yawStart: 0, yawIncrement: (2 * Math.PI) / 2048, yawCount: 2048, pitchStart: 2 * DEG, pitchIncrement: (-26.8 / 63) * DEG, pitchCount: 64 }, 0.9, 120, 10),
  /** 2D planar scanner: one horizontal channel, 360° in 0.5° steps, 30 m, 15 Hz. */
  planar2d: preset({ yawStart: -Math.PI, yawIncrement: 0.5 * DEG, yawCount: 720, pitchStart: 0, pitchIncrement: 0, pitchCount: 1 }, 0.05, 30, 15),
})
