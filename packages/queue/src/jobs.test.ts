import { SAMPLE_CALL_CREATED } from '@hookline/core';
import { DELIVER_JOB, parseDeliverJob } from './jobs';

describe('the deliver job catalogue', () => {
  const job = { accountId: 'acct_1', hookId: 'hk_1', event: SAMPLE_CALL_CREATED, acceptedAt: 1 };

  it('reads back the data the producer writes', () => {
    expect(parseDeliverJob(JSON.parse(JSON.stringify(job)))).toEqual(job);
  });

  it('refuses anything else, naming each problem', () => {
    expect(() =>
      parseDeliverJob({ ...job, hookId: '', event: { ...job.event, type: 'call_deleted' } }),
    ).toThrow(
      `not a ${DELIVER_JOB} job: hookId: Too small: expected string to have >=1 characters; event.type: Invalid input: expected "call_created"`,
    );
    expect(() => parseDeliverJob('x')).toThrow(/^not a deliver.v1 job: \(data\): /);
  });
});
