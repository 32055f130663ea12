/**
 * Growable structure-of-arrays stores: one typed array per field, indexed by entity id.
 * A store grows (doubling) when an entity id beyond its capacity joins, and its arrays are then
 * replaced: hot loops hoist the arrays into locals at the start of a system run, and never across
 * an add; code that keeps an array longer checks storeGeneration (decision 0008).
 */

/** A typed-array constructor a store field may use. */
export type ArrayCtor =
  | Float64ArrayConstructor
  | Float32ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | Uint16ArrayConstructor
  | Int16ArrayConstructor
  | Uint8ArrayConstructor
  | Int8ArrayConstructor

/** A field: a constructor (one value per entity) or `[constructor, stride]` (stride values per entity). */
export type FieldSpec = ArrayCtor | readonly [ArrayCtor, number]

type FieldArray<F> = F extends readonly [infer C, number]
  ? C extends ArrayCtor ? InstanceType<C> : never
  : F extends ArrayCtor ? InstanceType<F> : never

/** The arrays of a store, by field name. */
export type Store<S extends Record<string, FieldSpec>> = { -readonly [K in keyof S]: FieldArray<S[K]> }

const $schema = Symbol('pitlane.schema')
const $capacity = Symbol('pitlane.capacity')
const $generation = Symbol('pitlane.generation')

interface StoreMeta {
  [$schema]: Record<string, FieldSpec>
  [$capacity]: number
  [$generation]: number
}

/** Creates a store for `schema` with room for `capacity` entity ids. */
export function createStore<S extends Record<string, FieldSpec>>(schema: S, capacity = 64): Store<S> {
  const fields = Object.keys(schema).map((name) => {
    const spec = schema[name]
    const [Ctor, stride] = Array.isArray(spec) ? spec : [spec as ArrayCtor, 1]
    return [name, new Ctor(capacity * stride)] as const
  })
  // one object built whole from its entries (not field by field): decision 0007
  return Object.fromEntries([[$schema, schema], [$capacity, capacity], [$generation, 0], ...fields]) as Store<S>
}

/** Entity ids the store has room for. */
export function storeCapacity(store: object): number {
  return (store as unknown as StoreMeta)[$capacity] ?? 0
}

/**
 * How many times `store` has grown (0 at first). Its arrays are replaced exactly when this changes,
 * so a copy kept across adds (`const speed = sim.components.Car.speed`) is current while it is
 * unchanged: `if (storeGeneration(Car) !== seen) { speed = Car.speed; seen = storeGeneration(Car) }`.
 */
export function storeGeneration(store: object): number {
  return (store as unknown as StoreMeta)[$generation] ?? 0
}

/** True when `store` was made by createStore. */
export function isStore(store: object): boolean {
  return $schema in store
}

/** Grows `store` (by doubling) so that entity id `eid` fits; existing values are kept. */
export function ensureStoreCapacity(store: object, eid: number): void {
  const meta = store as unknown as StoreMeta & Record<string, ArrayLike<number>>
  const cap = meta[$capacity]
  if (eid < cap) return
  let next = Math.max(64, cap)
  while (next <= eid) next *= 2
  const schema = meta[$schema]
  for (const name of Object.keys(schema)) {
    const spec = schema[name]
    const [Ctor, stride] = Array.isArray(spec) ? spec : [spec as ArrayCtor, 1]
    const old = meta[name] as unknown as InstanceType<ArrayCtor>
    const grown = new Ctor(next * stride)
    grown.set(old as never)
    ;(meta as Record<string, unknown>)[name] = grown
  }
  meta[$capacity] = next
  meta[$generation]++
}
