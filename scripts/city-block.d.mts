import type { Document } from '@gltf-transform/core'
/** Where the asset is kept in the repository. */
export declare const CITY_BLOCK_PATH: string
/** The city block as a glTF-Transform Document. */
export declare function buildCityBlock(): Document
/** The city block as .glb bytes. */
export declare function cityBlockGlb(): Promise<Uint8Array>
