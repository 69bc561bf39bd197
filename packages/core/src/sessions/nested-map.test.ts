import { NestedMap } from './nested-map';

/** The maps of `second` keys under `first` that exist now (the private structure, which is what the memory promise is about). */
function secondKeys(map: NestedMap<number>, first: string): string[] {
  const outer = (map as unknown as { outer: Map<string, Map<string, unknown>> }).outer;
  return [...(outer.get(first)?.keys() ?? [])];
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
});
