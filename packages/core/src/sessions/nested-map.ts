/** The entry every inner map of a {@link NestedMap} holds, so none ever empties; never a key of a value. */
const KEPT = Symbol('kept');

type Inner<V> = Map<string | typeof KEPT, V | undefined>;

/**
 * A map from three string keys (`first` → `second` → `third`), held as maps of maps: the ids' own
 * strings are the keys, with no key built per lookup. The inner map of a `second` key goes when its
 * last entry goes (users come and go, and their maps must not stay), except the one that emptied last,
 * which waits for its next entry until another one empties: a key whose only entry comes and goes (a
 * user with one session at a time, as a service answering each request in a fresh session has) makes
 * no map each time. Every inner map keeps one entry of its own: V8 makes a map a new table each time
 * its last entry goes. A `first` key's map stays (apps are the code's own few names).
 *
 * The one entry of a map that holds no other is kept aside, out of the map (one at a time in all): the
 * usual entry comes and goes alone (a run's session, created and deleted), and then costs its map no
 * insert and no delete (a new key each time grew the map's table with deleted slots, which V8 rebuilds
 * every few entries). A second entry under the same keys puts it in its map first, in its place.
 */
export class NestedMap<V> {
  private readonly outer = new Map<string, Map<string, Inner<V>>>();
  /** The inner map that emptied last, kept (with where it is) until another empties. */
  private idleInner: Inner<V> | undefined;
  private idleMiddle: Map<string, Inner<V>> | undefined;
  private idleSecond = '';
  /**
   * The inner map found last, with its keys: one app's and user's operations come in a row (a run's
   * claim, creation, appends, release), and each then looks up one map instead of three. It is always
   * in the maps: the one a `delete` drops is another (that `delete` looked up its own map last).
   */
  private lastInner: Inner<V> | undefined;
  private lastFirst = '';
  private lastSecond = '';
  /**
   * The entry kept aside: `asideThird` → `asideValue`, the only entry of `asideInner` (which holds none of
   * its own meanwhile, and is in the maps) while that is set.
   */
  private asideInner: Inner<V> | undefined;
  private asideThird = '';
  private asideValue: V | undefined;

  /** The value at `first`, `second`, `third`, or `undefined`. */
  get(first: string, second: string, third: string): V | undefined {
    const inner = this.inner(first, second);
    if (!inner) return undefined;
    return inner === this.asideInner && third === this.asideThird ? this.asideValue : inner.get(third);
  }

  /** Whether there is a value at `first`, `second`, `third`. */
  has(first: string, second: string, third: string): boolean {
    const inner = this.inner(first, second);
    if (!inner) return false;
    return (inner === this.asideInner && third === this.asideThird) || inner.has(third);
  }

  /** Sets the value at `first`, `second`, `third`. */
  set(first: string, second: string, third: string, value: V): void {
    let inner = this.inner(first, second);
    if (!inner) {
      let middle = this.outer.get(first);
      if (!middle) this.outer.set(first, (middle = new Map()));
      middle.set(second, (inner = new Map<string | typeof KEPT, V | undefined>([[KEPT, undefined]])));
      this.remember(first, second, inner);
    }
    if (inner === this.asideInner) {
      if (third === this.asideThird) {
        this.asideValue = value;
        return;
      }
      // A second entry under these keys: the one aside goes in the map first, where it came.
      inner.set(this.asideThird, this.asideValue);
      this.asideInner = this.asideValue = undefined;
    } else if (!this.asideInner && inner.size === 1) {
      this.asideInner = inner;
      this.asideThird = third;
      this.asideValue = value;
      return;
    }
    inner.set(third, value);
  }

  /** Removes the value at `first`, `second`, `third`; whether there was one. */
  delete(first: string, second: string, third: string): boolean {
    const inner = this.inner(first, second);
    if (!inner) return false;
    if (inner === this.asideInner && third === this.asideThird) this.asideInner = this.asideValue = undefined;
    else if (!inner.delete(third)) return false;
    if (inner.size === 1 && inner !== this.idleInner) {
      // Emptied: this map waits for its key's next entry, and the one that waited before goes if still
      // empty (a map whose entry is aside is not).
      const idle = this.idleInner;
      if (idle && idle.size === 1 && idle !== this.asideInner && this.idleMiddle!.get(this.idleSecond) === idle) this.idleMiddle!.delete(this.idleSecond);
      this.idleInner = inner;
      this.idleMiddle = this.outer.get(first);
      this.idleSecond = second;
    }
    return true;
  }

  /** The inner map under `first` and `second`, or `undefined`: the one found last when the keys are the same. */
  private inner(first: string, second: string): Inner<V> | undefined {
    // Usually the very strings of the last lookup: each comparison is one of pointers.
    if (this.lastInner && second === this.lastSecond && first === this.lastFirst) return this.lastInner;
    const inner = this.outer.get(first)?.get(second);
    if (inner) this.remember(first, second, inner);
    return inner;
  }

  private remember(first: string, second: string, inner: Inner<V>): void {
    this.lastInner = inner;
    this.lastFirst = first;
    this.lastSecond = second;
  }

  /** The keys under `first`, `second` (none when there are none), in insertion order. */
  *keys(first: string, second: string): IterableIterator<string> {
    const inner = this.outer.get(first)?.get(second);
    if (!inner) return;
    if (inner === this.asideInner) yield this.asideThird;
    else for (const key of inner.keys()) if (key !== KEPT) yield key;
  }

  /** Every value with its `first` and `second` keys: `first`s in insertion order, the `second`s with values under each, their values in insertion order. */
  *groups(): IterableIterator<[first: string, second: string, values: V[]]> {
    for (const [first, middle] of this.outer) {
      for (const [second, inner] of middle) {
        if (inner === this.asideInner) {
          yield [first, second, [this.asideValue!]];
          continue;
        }
        if (inner.size === 1) continue;
        const values: V[] = [];
        for (const [key, value] of inner) if (key !== KEPT) values.push(value!);
        yield [first, second, values];
      }
    }
  }
}
