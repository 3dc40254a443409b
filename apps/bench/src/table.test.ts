import { formatTable, num, upTo } from './table';

describe('table text', () => {
  it('aligns the first column left and the others right', () => {
    expect(formatTable(['a', 'bb'], [['xyz', '1']])).toBe('a    bb\n---  --\nxyz   1');
  });

  it('prints a fixed number of decimals, or a dash for no figure', () => {
    expect(num(1234.5)).toBe('1,235');
    expect(num(0.5, 2)).toBe('0.50');
    expect(num(undefined)).toBe('-');
  });

  it('prints limits and target values with the decimals they have, up to four', () => {
    expect(upTo(0.001)).toBe('0.001');
    expect(upTo(1.25)).toBe('1.25');
    expect(upTo(5000)).toBe('5,000');
    expect(upTo(0.000123)).toBe('0.0001');
    expect(upTo(Number.NaN)).toBe('-');
  });
});
