/** Car presets with real-world figures (sources in the comments); definitions are frozen, spread them to vary. */
import type { CarDefinition } from './definition'

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v)
    Object.freeze(o)
  }
  return o
}

// VW Polo VI (AW) 1.0 TSI 110 PS with 7-speed DSG (DQ200): VW technical data 2021 —
// 81 kW at 5000–5500 rpm, 200 N·m at 2000–3500 rpm, kerb weight 1,185 kg (+ driver and fuel
// ≈ 1,250 kg), wheelbase 2,564 mm, track 1,525/1,505 mm, 4,053 × 1,751 × 1,461 mm, Cd 0.32 at
// ≈2.2 m², 195/55 R16 tyres, 0–100 km/h 9.3 s, top speed 193 km/h, 61/39 weight split.
// DQ200 gear ratios 3.765 2.273 1.531 1.122 | 1.176 0.951 0.795 with final drives 4.800 | 3.429
// (written here as one final drive of 4.8, gears 5–7 scaled by 3.429 / 4.8).
// Inertias, suspension rates (ride ≈1.4 Hz front, 1.6 Hz rear, ≈0.45 damping) and tyre
// parameters are typical values for the class (Milliken, "Race Car Vehicle Dynamics", ch. 2, 16).
const hatchback: CarDefinition = {
  name: 'hatchback',
  model: 'fourWheel',
  hz: 1000,
  mass: 1250,
  yawInertia: 1850,
  rollInertia: 450,
  pitchInertia: 1700,
  cgHeight: 0.55,
  wheelbase: 2.564,
  cgToFront: 1.0,
  trackFront: 1.525,
  trackRear: 1.505,
  length: 4.053,
  width: 1.751,
  height: 1.461,
  wheelRadius: 0.3,
  wheelInertia: 0.9,
  maxSteer: 0.55,
  steerRate: 1.5,
  ackermann: 0.8,
  steerCompliance: 4.5e-6,
  drive: 'front',
  differential: 'open',
  lsdLocking: 0,
  lsdPreload: 0,
  tractionControl: true,
  dragCoefficient: 0.32,
  frontalArea: 2.2,
  tyre: { mu: 1.1, peakSlip: 0.1, peakSlipAngle: 0.14, slideRatio: 0.8, loadSensitivity: 0.12 },
  engine: {
    idleRpm: 800,
    maxRpm: 6200,
    torqueCurve: [[800, 110], [1500, 170], [2000, 200], [3500, 200], [4500, 180], [5000, 155], [5500, 140], [6000, 120], [6500, 80]],
    inertia: 0.15,
    friction: 40,
  },
  gearbox: {
    ratios: [3.765, 2.273, 1.531, 1.122, 0.84, 0.679, 0.568],
    reverse: 3.99,
    finalDrive: 4.8,
    efficiency: 0.92,
    automatic: true,
    shiftUpRpm: 5800,
    shiftDownRpm: 1400,
    shiftTime: 0.08,
    clutchTorque: 350,
    clutchEngageRpm: 2000,
  },
  brakes: { maxTorque: 5500, bias: 0.78, handbrakeTorque: 2400, abs: true },
  suspension: { springFront: 29400, springRear: 24700, damperFront: 3000, damperRear: 2200, antiRollFront: 25000, antiRollRear: 10000 },
}

// Porsche 718 Cayman (982) 2.0 turbo, 6-speed manual: Porsche technical data 2019 — 220 kW at
// 6500 rpm, 380 N·m at 2150–4500 rpm, DIN weight 1,335 kg (+ driver ≈ 1,410 kg), wheelbase
// 2,475 mm, track 1,515/1,532 mm, 4,379 × 1,801 × 1,295 mm, Cd 0.31 at ≈1.95 m², 45/55 weight
// split (mid-engine), 265/40 R19 rear tyres, 0–100 km/h 5.1 s, top speed 275 km/h; ratios
// 3.31 1.95 1.41 1.13 0.95 0.81, final drive 3.89, mechanical limited-slip differential option.
const sportsCar: CarDefinition = {
  name: 'sportsCar',
  model: 'fourWheel',
  hz: 1000,
  mass: 1410,
  yawInertia: 1900,
  rollInertia: 420,
  pitchInertia: 1650,
  cgHeight: 0.46,
  wheelbase: 2.475,
  cgToFront: 1.36,
  trackFront: 1.515,
  trackRear: 1.532,
  length: 4.379,
  width: 1.801,
  height: 1.295,
  wheelRadius: 0.335,
  wheelInertia: 1.2,
  maxSteer: 0.5,
  steerRate: 2.5,
  ackermann: 0.6,
  steerCompliance: 4.5e-6,
  drive: 'rear',
  differential: 'limitedSlip',
  lsdLocking: 0.3,
  lsdPreload: 40,
  tractionControl: true,
  dragCoefficient: 0.31,
  frontalArea: 1.95,
  tyre: { mu: 1.15, peakSlip: 0.09, peakSlipAngle: 0.12, slideRatio: 0.8, loadSensitivity: 0.1 },
  engine: {
    idleRpm: 850,
    maxRpm: 7500,
    torqueCurve: [[850, 180], [1500, 280], [2150, 380], [4500, 380], [5500, 350], [6500, 323], [7000, 290], [7600, 200]],
    inertia: 0.2,
    friction: 60,
  },
  gearbox: {
    ratios: [3.31, 1.95, 1.41, 1.13, 0.95, 0.81],
    reverse: 3.0,
    finalDrive: 3.89,
    efficiency: 0.93,
    automatic: false,
    shiftUpRpm: 7200,
    shiftDownRpm: 2500,
    shiftTime: 0.2,
    clutchTorque: 600,
    clutchEngageRpm: 2200,
  },
  brakes: { maxTorque: 7500, bias: 0.68, handbrakeTorque: 2600, abs: true },
  suspension: { springFront: 36000, springRear: 42000, damperFront: 3600, damperRear: 3800, antiRollFront: 30000, antiRollRear: 22000 },
}

// VW Transporter T6.1 2.0 TDI 150 PS, 6-speed manual, front drive: VW technical data 2020 —
// 110 kW at 3250–3750 rpm, 340 N·m at 1500–3000 rpm, kerb weight ≈ 2,000 kg (+ driver ≈ 2,100 kg),
// wheelbase 3,000 mm, track 1,628/1,617 mm, 4,904 × 1,904 × 1,990 mm, Cd ≈0.35 at ≈3.6 m²,
// 215/65 R16C tyres, top speed ≈182 km/h. Gear ratios are typical for VW's 6-speed 02Q box
// (approximate), centre of mass height and inertias estimated for a loaded-light van.
const van: CarDefinition = {
  name: 'van',
  model: 'fourWheel',
  hz: 1000,
  mass: 2100,
  yawInertia: 4300,
  rollInertia: 1100,
  pitchInertia: 4000,
  cgHeight: 0.8,
  wheelbase: 3.0,
  cgToFront: 1.35,
  trackFront: 1.628,
  trackRear: 1.617,
  length: 4.904,
  width: 1.904,
  height: 1.99,
  wheelRadius: 0.34,
  wheelInertia: 1.4,
  maxSteer: 0.6,
  steerRate: 1.2,
  ackermann: 0.8,
  steerCompliance: 4.5e-6,
  drive: 'front',
  differential: 'open',
  lsdLocking: 0,
  lsdPreload: 0,
  tractionControl: true,
  dragCoefficient: 0.35,
  frontalArea: 3.6,
  tyre: { mu: 0.95, peakSlip: 0.11, peakSlipAngle: 0.15, slideRatio: 0.8, loadSensitivity: 0.12 },
  engine: {
    idleRpm: 800,
    maxRpm: 4800,
    torqueCurve: [[800, 160], [1250, 260], [1500, 340], [3000, 340], [3500, 310], [4000, 250], [4500, 190], [5000, 100]],
    inertia: 0.3,
    friction: 60,
  },
  gearbox: {
    ratios: [3.778, 2.118, 1.36, 0.971, 0.756, 0.622],
    reverse: 3.6,
    finalDrive: 3.94,
    efficiency: 0.92,
    automatic: false,
    shiftUpRpm: 4200,
    shiftDownRpm: 1300,
    shiftTime: 0.25,
    clutchTorque: 600,
    clutchEngageRpm: 1700,
  },
  brakes: { maxTorque: 9000, bias: 0.72, handbrakeTorque: 3600, abs: true },
  suspension: { springFront: 45000, springRear: 55000, damperFront: 4500, damperRear: 5000, antiRollFront: 40000, antiRollRear: 15000 },
}

/** Car presets: `hatchback` (front drive, automatic), `sportsCar` (rear drive, manual, LSD), `van` (front drive, manual). */
export const presets = deepFreeze({ hatchback, sportsCar, van })
