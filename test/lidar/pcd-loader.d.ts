// The part of three.js's PCDLoader the PCD test uses (three ships no types; @types/three is not needed for this).
declare module 'three/examples/jsm/loaders/PCDLoader.js' {
  /** three.js's PCD loader. */
  export class PCDLoader {
    parse(data: ArrayBuffer): { geometry: { attributes: Record<string, { array: ArrayLike<number> }> } }
  }
}
