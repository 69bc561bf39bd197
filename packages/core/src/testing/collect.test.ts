import { collect } from './collect';

describe('collect', () => {
  it('returns every item in order', async () => {
    async function* numbers() {
      yield 1;
      yield 2;
      yield 3;
    }
    expect(await collect(numbers())).toEqual([1, 2, 3]);
  });

  it('rejects with the error the iterable throws', async () => {
    async function* failing() {
      yield 1;
      throw new Error('broken stream');
    }
    await expect(collect(failing())).rejects.toThrow('broken stream');
  });
});
