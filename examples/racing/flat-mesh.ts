/**
 * Flat-coloured geometry: a position and an RGBA colour per vertex, drawn by a shader that samples
 * no texture and interpolates nothing (a primitive takes its last vertex's colour, and every shape
 * here is one colour). A software rasteriser (SwiftShader in headless Chromium) pays per shaded
 * pixel and per primitive, and pixi's sprite and Graphics shader samples a texture for every pixel;
 * the static track, barriers and lidar points need none. Triangles are built with `FlatShapes`; lidar
 * points are one vertex each (a point list, `uPointSize` screen pixels square).
 */
import { Buffer, BufferUsage, Geometry, Mesh, Shader, UniformGroup } from 'pixi.js'

const VERTEX = `#version 300 es
in vec2 aPosition;
in vec4 aColor;
flat out vec4 vColor;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform mat3 uTransformMatrix;
uniform vec4 uColor;
uniform float uPointSize;
void main() {
  mat3 m = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((m * vec3(aPosition, 1.0)).xy, 0.0, 1.0);
  gl_PointSize = uPointSize;
  vColor = vec4(aColor.rgb * aColor.a, aColor.a) * uColor;
}`
// flat: one colour a primitive, nothing interpolated per pixel
const FRAGMENT = `#version 300 es
flat in vec4 vColor;
out vec4 finalColor;
void main() {
  finalColor = vColor;
}`

/** A shader for flat-coloured meshes; `pointSize` (px) matters only for point lists. */
export function flatShader(pointSize = 1): Shader & { setPointSize(px: number): void } {
  const uniforms = new UniformGroup({ uPointSize: { value: pointSize, type: 'f32' } })
  const shader = Shader.from({ gl: { vertex: VERTEX, fragment: FRAGMENT }, resources: { flatUniforms: uniforms } })
  return Object.assign(shader, {
    setPointSize(px: number) {
      if (uniforms.uniforms.uPointSize === px) return
      uniforms.uniforms.uPointSize = px
      uniforms.update()
    },
  })
}

let shared: Shader | null = null

/** 0xRRGGBB and alpha as the packed bytes R, G, B, A of a colour attribute (little-endian). */
export function rgba(color: number, alpha = 1): number {
  return (((Math.round(alpha * 255) & 255) << 24) | ((color & 255) << 16) | (color & 0xff00) | ((color >> 16) & 255)) >>> 0
}

/** A geometry of `positions` (x, y pairs) and packed `colors`, drawn as `topology`, optionally indexed. */
export function flatGeometry(positions: Float32Array, colors: Uint32Array, indices: Uint32Array | null, topology: 'triangle-list' | 'point-list', dynamic = false): Geometry {
  const usage = BufferUsage.VERTEX | BufferUsage.COPY_DST
  const attributes = {
    aPosition: { buffer: new Buffer({ data: positions, usage, shrinkToFit: !dynamic }), format: 'float32x2' as const },
    aColor: { buffer: new Buffer({ data: colors, usage, shrinkToFit: !dynamic }), format: 'unorm8x4' as const },
  }
  return new Geometry(indices === null ? { attributes, topology } : { attributes, indexBuffer: indices, topology })
}

/** Triangles of flat colours, built up shape by shape and turned into one mesh. */
export class FlatShapes {
  private readonly xy: number[] = []
  private readonly rgba: number[] = []
  private readonly index: number[] = []

  /** Vertices so far. */
  get vertices(): number { return this.xy.length >> 1 }

  /** A convex polygon (x, y pairs, in order), filled with `color` at `alpha`. */
  poly(points: readonly number[], color: number, alpha = 1): this {
    const base = this.vertices, c = rgba(color, alpha), n = points.length >> 1
    for (let i = 0; i < n; i++) { this.xy.push(points[2 * i]!, points[2 * i + 1]!); this.rgba.push(c) }
    for (let i = 1; i + 1 < n; i++) this.index.push(base, base + i, base + i + 1)
    return this
  }

  /** A strip between two polylines of the same length (left and right edges), filled with `color`. */
  strip(left: readonly number[], right: readonly number[], color: number, alpha = 1): this {
    const base = this.vertices, c = rgba(color, alpha), n = left.length >> 1
    for (let i = 0; i < n; i++) { this.xy.push(left[2 * i]!, left[2 * i + 1]!, right[2 * i]!, right[2 * i + 1]!); this.rgba.push(c, c) }
    for (let i = 0; i + 1 < n; i++) {
      const a = base + 2 * i
      this.index.push(a, a + 1, a + 3, a, a + 3, a + 2)
    }
    return this
  }

  /** A line from (ax, ay) to (bx, by), `width` wide, as a quad. */
  line(ax: number, ay: number, bx: number, by: number, width: number, color: number, alpha = 1): this {
    const len = Math.hypot(bx - ax, by - ay) || 1
    const nx = (-(by - ay) / len) * width * 0.5, ny = ((bx - ax) / len) * width * 0.5
    return this.poly([ax + nx, ay + ny, bx + nx, by + ny, bx - nx, by - ny, ax - nx, ay - ny], color, alpha)
  }

  /** A disc of `radius` at (x, y) as a `sides`-gon. */
  circle(x: number, y: number, radius: number, color: number, alpha = 1, sides = 12): this {
    const pts: number[] = []
    for (let i = 0; i < sides; i++) pts.push(x + Math.cos((i / sides) * 2 * Math.PI) * radius, y + Math.sin((i / sides) * 2 * Math.PI) * radius)
    return this.poly(pts, color, alpha)
  }

  /** The shapes as one mesh (culled when off screen), drawn in the order they were added. */
  mesh(label: string): Mesh<Geometry, Shader> {
    shared ??= flatShader()
    const geometry = flatGeometry(new Float32Array(this.xy), new Uint32Array(this.rgba), new Uint32Array(this.index), 'triangle-list')
    const mesh = new Mesh<Geometry, Shader>({ geometry, shader: shared, label })
    mesh.cullable = true
    return mesh
  }
}
