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
      `not a ${DELIVER_JOB} job: hookId: Too small: expected string to have >=1 characters; event: is of a kind this version does not know and carries no layout`,
    );
    expect(() => parseDeliverJob('x')).toThrow(/^not a deliver.v1 job: \(data\): /);
  });

  it('reads an event of a kind it does not know when the event carries its layout', () => {
    const event = {
      id: 'evt_1',
      type: 'call_ended',
      fields: { EventType: 'call_ended', duration: '1.50' },
      layout: [
        ['EventType', 'string'],
        ['duration', 'decimal'],
      ],
    };
    expect(parseDeliverJob({ ...job, event }).event).toEqual(event);
    const badLayout = { ...event, layout: [['duration', 'money']] };
    expect(() => parseDeliverJob({ ...job, event: badLayout })).toThrow(/event\.layout\.0\.1: /);
  });
});
