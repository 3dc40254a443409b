import { clusterAccess } from './connection';

describe('cluster access from REDIS_URL', () => {
  it('takes the user, the password (URL-decoded) and TLS for rediss://; the host is not used', () => {
    expect(clusterAccess('rediss://hookline:p%40ss%3Aword@ignored:6380')).toEqual({
      username: 'hookline',
      password: 'p@ss:word',
      tls: {},
    });
  });

  it('a password alone, no TLS for redis://', () => {
    expect(clusterAccess('redis://:s3cret@cluster')).toEqual({ password: 's3cret' });
  });

  it('nothing for the default URL', () => {
    expect(clusterAccess('redis://127.0.0.1:6379')).toEqual({});
  });
});
