import { costLine } from './rate-rows';

describe('the cost line', () => {
  it('turns CPU µs per delivery into core-ms per delivery and core-hours per million deliveries', () => {
    // 1,800 µs a delivery: 1.8 core-ms; a million of them 1.8e9 µs = 0.5 core-hours.
    expect(costLine(1800)).toEqual({ coreMsPerDelivery: 1.8, coreHoursPerMillion: 0.5 });
    expect(costLine(360)).toEqual({ coreMsPerDelivery: 0.36, coreHoursPerMillion: 0.1 });
  });
});
