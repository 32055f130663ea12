/** Math helpers: vec3, row-major mat3 and quaternions on plain numbers and typed arrays. */
export * from './vec3'
export * from './mat3'
export * from './quat'
