import { NestedMap } from './nested-map';

/** The maps of `second` keys under `first` that exist now (the private structure, which is what the memory promise is about). */
function secondKeys(map: NestedMap<number>, first: string): string[] {
  const outer = (map as unknown as { outer: Map<string, Map<string, unknown>> }).outer;
  return [...(outer.get(first)?.keys() ?? [])];
}

/** How many entries the map under `first`, `second` holds in itself, its own one left out (private structure). */
function heldInMap(map: NestedMap<number>, first: string, second: string): number {
  const outer = (map as unknown as { outer: Map<string, Map<string, Map<unknown, unknown>>> }).outer;
  return (outer.get(first)?.get(second)?.size ?? 1) - 1;
}

describe('NestedMap', () => {
  it('gets, sets, deletes and lists by three keys, without its own entries showing', () => {
    const map = new NestedMap<number>();
    map.set('app', 'u1', 's2', 2);
    map.set('app', 'u1', 's1', 1);
    map.set('app', 'u2', 's1', 3);
    map.set('other', 'u1', 's1', 4);
    expect([map.get('app', 'u1', 's1'), map.get('app', 'u2', 's1'), map.get('other', 'u1', 's1'), map.get('app', 'u3', 's1'), map.get('nope', 'u1', 's1')]).toEqual([1, 3, 4, undefined, undefined]);
    expect([map.has('app', 'u1', 's2'), map.has('app', 'u1', 's3'), map.has('x', 'y', 'z')]).toEqual([true, false, false]);
    expect([...map.keys('app', 'u1')]).toEqual(['s2', 's1']);
    expect([...map.keys('app', 'u9')]).toEqual([]);
    expect([...map.groups()]).toEqual([['app', 'u1', [2, 1]], ['app', 'u2', [3]], ['other', 'u1', [4]]]);
    expect([map.delete('app', 'u1', 's2'), map.delete('app', 'u1', 's2'), map.delete('app', 'u9', 's1')]).toEqual([true, false, false]);
    expect(map.delete('app', 'u2', 's1')).toBe(true);
    expect([...map.keys('app', 'u2')]).toEqual([]);
    expect([...map.groups()]).toEqual([['app', 'u1', [1]], ['other', 'u1', [4]]]);
  });

  it('keeps the map of a key whose only entry comes and goes, and no more than one emptied map in all', () => {
    const map = new NestedMap<number>();
    // One user, one session at a time (a fresh session per request): the same map throughout.
    for (let i = 0; i < 5; i++) {
      map.set('app', 'u', `s${i}`, i);
      map.delete('app', 'u', `s${i}`);
    }
    expect(secondKeys(map, 'app')).toEqual(['u']);
    // Users who come and go: only the last one's emptied map stays.
    for (let i = 0; i < 1000; i++) {
      map.set('app', `user-${i}`, 's', i);
      map.delete('app', `user-${i}`, 's');
    }
    expect(secondKeys(map, 'app')).toEqual(['user-999']);
    // A user with sessions keeps their map; the emptied one is dropped when another empties.
    map.set('app', 'kept', 's', 1);
    map.set('app', 'gone', 's', 2);
    map.delete('app', 'gone', 's');
    expect(secondKeys(map, 'app').sort()).toEqual(['gone', 'kept']);
    expect([...map.groups()]).toEqual([['app', 'kept', [1]]]);
    // The emptied map that waits is used again, and dropped only while empty.
    map.set('app', 'gone', 's', 3);
    map.set('app', 'third', 's', 4);
    map.delete('app', 'third', 's');
    expect(secondKeys(map, 'app').sort()).toEqual(['gone', 'kept', 'third']);
    expect(map.get('app', 'gone', 's')).toBe(3);
  });

  it('a map dropped while it was the one looked up last is not written to again: the next entry under its keys makes a new one', () => {
    const map = new NestedMap<number>();
    map.set('app', 'u1', 's1', 1);
    map.delete('app', 'u1', 's1'); // u1's emptied map waits
    map.set('app', 'u2', 's', 2);
    expect(map.get('app', 'u1', 's1')).toBeUndefined(); // u1's map is the one looked up last
    map.delete('app', 'u2', 's'); // u2's map empties: u1's is dropped
    expect(secondKeys(map, 'app')).toEqual(['u2']);
    map.set('app', 'u1', 's2', 3);
    expect(map.get('app', 'u1', 's2')).toBe(3);
    expect([...map.keys('app', 'u1')]).toEqual(['s2']);
    expect([...map.groups()]).toEqual([['app', 'u1', [3]]]);
  });

  it('keeps the lone entry of a map aside, out of it, and puts it back in its place when a second comes', () => {
    const map = new NestedMap<number>();
    map.set('app', 'u', 's1', 1);
    expect(heldInMap(map, 'app', 'u')).toBe(0); // aside: its map is not written
    expect([map.get('app', 'u', 's1'), map.has('app', 'u', 's1'), map.get('app', 'u', 's2'), map.has('app', 'u', 's2')]).toEqual([1, true, undefined, false]);
    expect([...map.keys('app', 'u')]).toEqual(['s1']);
    expect([...map.groups()]).toEqual([['app', 'u', [1]]]);
    map.set('app', 'u', 's1', 5); // written again: still the one aside
    expect([map.get('app', 'u', 's1'), heldInMap(map, 'app', 'u')]).toEqual([5, 0]);
    // Another user's lone entry while one is aside goes in its own map.
    map.set('app', 'v', 't', 7);
    expect([heldInMap(map, 'app', 'v'), map.get('app', 'v', 't')]).toEqual([1, 7]);
    // A second entry under the same keys: both in the map, the first one first.
    map.set('app', 'u', 's2', 2);
    expect(heldInMap(map, 'app', 'u')).toBe(2);
    expect([...map.keys('app', 'u')]).toEqual(['s1', 's2']);
    expect([...map.groups()]).toEqual([['app', 'u', [5, 2]], ['app', 'v', [7]]]);
    expect([map.delete('app', 'u', 's1'), map.delete('app', 'u', 's2'), map.delete('app', 'u', 's2')]).toEqual([true, true, false]);
    expect([...map.groups()]).toEqual([['app', 'v', [7]]]);
    // Deleting the entry aside empties its map (which waits, as any emptied map); the slot is free again.
    map.set('app', 'w', 'x', 3);
    expect(heldInMap(map, 'app', 'w')).toBe(0);
    expect([map.delete('app', 'w', 'y'), map.delete('app', 'w', 'x'), map.get('app', 'w', 'x')]).toEqual([false, true, undefined]);
    expect([...map.keys('app', 'w')]).toEqual([]);
    map.set('app', 'w', 'z', 4);
    expect([heldInMap(map, 'app', 'w'), map.get('app', 'w', 'z')]).toEqual([0, 4]);
  });

  it('never drops the waiting emptied map while its key has an entry aside', () => {
    const map = new NestedMap<number>();
    map.set('app', 'a', 's', 1);
    map.delete('app', 'a', 's'); // a's map empties and waits
    map.set('app', 'a', 's2', 2); // a's lone entry, aside: its map still holds nothing of its own
    map.set('app', 'b', 's', 3);
    map.delete('app', 'b', 's'); // b's map empties: the waiting one (a's) goes only if it is empty
    expect(secondKeys(map, 'app').sort()).toEqual(['a', 'b']);
    expect([map.get('app', 'a', 's2'), ...map.keys('app', 'a')]).toEqual([2, 's2']);
    expect([...map.groups()]).toEqual([['app', 'a', [2]]]);
    map.set('app', 'a', 's3', 4);
    expect([...map.groups()]).toEqual([['app', 'a', [2, 4]]]);
  });
});
