/** CarDefinition: the plain, documented description of a car, and the resolved form the models run on. */

/** Tyre parameters (a simplified Magic Formula on normalised combined slip, see tyre.ts). */
export interface TyreDefinition {
  /** Peak friction coefficient on dry tarmac at the nominal load. */
  mu: number
  /** Longitudinal slip ratio at the force peak (e.g. 0.1). */
  peakSlip: number
  /** Slip angle at the lateral force peak, rad (e.g. 0.14). */
  peakSlipAngle: number
  /** Fully sliding force as a fraction of the peak (0..1, e.g. 0.8). */
  slideRatio: number
  /** Friction loss per unit of load above nominal: μ(Fz) = μ·(1 − k·(Fz/Fz0 − 1)) (e.g. 0.1). */
  loadSensitivity: number
}

/** Engine parameters. */
export interface EngineDefinition {
  /** Idle speed the idle controller holds, rpm. */
  idleRpm: number
  /** Rev limiter: fuel is cut above this, rpm. */
  maxRpm: number
  /** Full-throttle torque curve, [[rpm, N·m], …] with rpm increasing (linear in between, clamped outside). */
  torqueCurve: number[][]
  /** Rotating inertia of engine and flywheel, kg·m². */
  inertia: number
  /** Friction (engine braking) torque at maxRpm with the throttle closed, N·m (proportional to rpm). */
  friction: number
}

/** Gearbox and clutch parameters. */
export interface GearboxDefinition {
  /** Forward gear ratios, first gear first. */
  ratios: number[]
  /** Reverse gear ratio (positive number). */
  reverse: number
  /** Final drive ratio. */
  finalDrive: number
  /** Driveline efficiency (0..1]. */
  efficiency: number
  /** True: shifts by itself (the input gear then picks -1 reverse, 0 neutral, >= 1 drive). */
  automatic: boolean
  /** Automatic: upshift at this engine rpm at full throttle. */
  shiftUpRpm: number
  /** Automatic: downshift below this engine rpm with the throttle closed (the throttle raises it: kick-down). */
  shiftDownRpm: number
  /** Torque interruption of a shift, s (automatic, and a manual box between two gears). */
  shiftTime: number
  /** Clutch torque capacity fully engaged, N·m. */
  clutchTorque: number
  /** Launch aid: the clutch closes progressively from idle up to this engine rpm (no stalling). */
  clutchEngageRpm: number
}

/** Brakes. */
export interface BrakeDefinition {
  /** Total brake torque of all four wheels at brake = 1, N·m. */
  maxTorque: number
  /** Fraction of brake torque on the front axle (0..1). */
  bias: number
  /** Handbrake torque on the rear axle at handbrake = 1, N·m. */
  handbrakeTorque: number
  /** Anti-lock braking: wheel brake torque is capped at what the tyre can take (no lock from the pedal). */
  abs: boolean
}

/** Suspension per axle. */
export interface SuspensionDefinition {
  /** Spring rate per front corner, N/m. */
  springFront: number
  /** Spring rate per rear corner, N/m. */
  springRear: number
  /** Damper rate per front corner, N·s/m. */
  damperFront: number
  /** Damper rate per rear corner, N·s/m. */
  damperRear: number
  /** Front anti-roll bar, N·m/rad of body roll. */
  antiRollFront: number
  /** Rear anti-roll bar, N·m/rad of body roll. */
  antiRollRear: number
}

/** A car: plain data, validated by addCar (a bad field gets an error naming it, e.g. `definition.mass`). */
export interface CarDefinition {
  /** A name for the car. */
  name: string
  /** The model run at level 'full'. */
  model: 'fourWheel' | 'singleTrack'
  /** Substep rate of the full model, Hz. */
  hz: number
  /** Mass with driver, kg. */
  mass: number
  /** Yaw moment of inertia, kg·m². */
  yawInertia: number
  /** Roll moment of inertia of the sprung mass, kg·m². */
  rollInertia: number
  /** Pitch moment of inertia of the sprung mass, kg·m². */
  pitchInertia: number
  /** Height of the centre of mass above the ground, m. */
  cgHeight: number
  /** Wheelbase, m. */
  wheelbase: number
  /** Distance from the centre of mass to the front axle, m (0 < x < wheelbase). */
  cgToFront: number
  /** Front track width, m. */
  trackFront: number
  /** Rear track width, m. */
  trackRear: number
  /** Body length (chassis collider), m. */
  length: number
  /** Body width (chassis collider), m. */
  width: number
  /** Body height (chassis collider), m. */
  height: number
  /** Tyre rolling radius, m. */
  wheelRadius: number
  /** Spin inertia of one wheel with tyre, disc and hub, kg·m². */
  wheelInertia: number
  /** Road-wheel steering angle at full lock, rad. */
  maxSteer: number
  /** Steering rate limit, rad/s of road-wheel angle. */
  steerRate: number
  /** Ackermann fraction: 0 parallel steer, 1 full Ackermann geometry. */
  ackermann: number
  /**
   * Steering compliance: front road-wheel angle given up per newton of front-axle lateral force,
   * rad/N (e.g. 4.5e-6 ≈ 0.26°/kN; default 0). The main source of a road car's understeer.
   */
  steerCompliance?: number
  /** Driven axle(s). */
  drive: 'front' | 'rear' | 'all'
  /** Differential on each driven axle. */
  differential: 'open' | 'limitedSlip'
  /** Limited slip: torque bias as a fraction of the input torque (0..1). */
  lsdLocking: number
  /** Limited slip: preload torque, N·m. */
  lsdPreload: number
  /** Traction control: drive torque is cut where it would spin a wheel past the tyre's peak slip. */
  tractionControl: boolean
  /** Drag coefficient Cd. */
  dragCoefficient: number
  /** Frontal area, m². */
  frontalArea: number
  /** Tyres. */
  tyre: TyreDefinition
  /** Engine. */
  engine: EngineDefinition
  /** Gearbox and clutch. */
  gearbox: GearboxDefinition
  /** Brakes. */
  brakes: BrakeDefinition
  /** Suspension. */
  suspension: SuspensionDefinition
}

/** A definition resolved into the numbers the models use (internal). */
export interface ResolvedCar {
  def: CarDefinition
  fourWheel: boolean
  hz: number
  mass: number
  iz: number
  ixx: number
  iyy: number
  h: number
  L: number
  a: number
  b: number
  tf: number
  tr: number
  R: number
  iw: number
  maxSteer: number
  steerRate: number
  ackermann: number
  /** Steering compliance, rad/N. */
  steerCompliance: number
  /** Cornering stiffness per unit load and grip at nominal load, per rad (μ·B·C/tan αpeak). */
  corneringPerLoad: number
  /** Drive torque share per wheel FL, FR, RL, RR (sums to 1). */
  driveShare: Float64Array
  /** Drive torque share for the single-track model: index 0 front axle, 2 rear axle. */
  axleShare: Float64Array
  /** Driven wheels per differential pair (1 or 2 pairs) and per axle flags. */
  frontDriven: boolean
  rearDriven: boolean
  lsd: boolean
  /** A limited-slip differential on a driven rear axle (the single-track model's locking). */
  rearLsd: boolean
  lsdLocking: number
  lsdPreload: number
  tcs: boolean
  dragK: number
  mu: number
  peakSlip: number
  peakSlipAngle: number
  mfB: number
  mfC: number
  /** The tyre curve tabulated for the single-track model (tyreCurveTable). */
  tyreTable: Float64Array
  loadSens: number
  /** Nominal tyre load (static load of an average corner), N. */
  fz0: number
  /** 1 / fz0. */
  invFz0: number
  idleW: number
  maxW: number
  curveW: Float64Array
  curveT: Float64Array
  engineInertia: number
  /** 1 / engineInertia. */
  invEngineInertia: number
  frictionPerW: number
  /** Overall ratios: index 0 reverse (negative), 1..n forward. */
  overall: Float64Array
  gears: number
  efficiency: number
  automatic: boolean
  upW: number
  downW: number
  shiftTime: number
  clutchTorque: number
  engageW: number
  brakeFront: number
  brakeRear: number
  handbrake: number
  abs: boolean
  kF: number
  kR: number
  cF: number
  cR: number
  arbF: number
  arbR: number
  /** Lateral load transfer per wheel per m/s² of lateral acceleration, front/rear (roll-stiffness split), N. */
  ltF: number
  ltR: number
  /** Static corner loads front/rear, N (per wheel). */
  fzF: number
  fzR: number
  /** Half the body's diagonal in plan, m (how far its corners reach from the centre of mass: the ground gather's box). */
  groundRadius: number
  /** 3·cgHeight plus both springs' static deflections, m (how far below the centre of mass the ground gather looks, before motion). */
  groundDepth: number
}
