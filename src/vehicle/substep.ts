/**
 * The substep being taken, shared by the model functions: [h (s), gravity (m/s²)]. Set once per
 * car by the vehicle system; read through a typed array because doubles passed as arguments to
 * functions V8 does not inline are boxed (an allocation per call in the hottest loop).
 */
export const substep = new Float64Array(2)
